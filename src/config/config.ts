import { readFileSync, existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

/**
 * A CPU task still running this many deadlines (workerTaskTimeoutMs) after it started is stuck (in
 * JavaScript: no model call runs for seconds), and only then is its worker terminated.
 */
export const WORKER_HANG_FACTOR = 6;

/**
 * Bun's HTTP parser answers a request line plus headers over its limit (`--max-http-header-size`,
 * 16 KiB by default) with a bare 431 before any of svc's code runs: no error body, no request id
 * (issue 23). svc starts Bun with the parser's limit raised to this (the `svc` shebang, `npm start`,
 * the test and bench spawners) and enforces its own smaller limits, maxUrlBytes and maxHeaderBytes,
 * in the contract's error shape (src/http/header-limits.ts). Only a header block over this cap still
 * gets Bun's bare 431; the cap also bounds what one connection can make the parser buffer.
 */
export const PARSER_HEADER_BYTES = 1024 * 1024;

/** The Bun flag that raises the parser's limit, for whatever spawns `svc serve`. */
export const PARSER_FLAG = `--max-http-header-size=${PARSER_HEADER_BYTES}`;

/**
 * Settings of Bun's allocator (its mimalloc fork) that `npm start`, `npm run svc`, the `svc` shebang and
 * the benchmark's gateways launch with; mimalloc reads them at start, so the process cannot set them for
 * itself. `MIMALLOC_PURGE_HOLES=0`: no purging of the free blocks inside pages still in use, which the
 * relay faulted straight back in (README, "The allocator"). `MIMALLOC_PURGE_DELAY=10000`: a page left
 * wholly free goes back to the operating system after 10 s rather than mimalloc's 10 ms. The relay frees
 * and reuses such pages continually (the garbage collector's blocks, bodies, socket reads), and at 10 ms
 * they were decommitted and faulted in again between two uses: paired against the default delay, -40 and
 * -82 µs of CPU per relayed call in two runs of `bun bench/relay-cpu.ts --tree base=<main> --tree
 * d10000=<main>:MIMALLOC_PURGE_DELAY=10000 ...` (load 15-21), for a gateway RSS under load of 406 MB
 * against 357 (peak 464 against 410). Never purging (-1) saved a little more (-59, -102) but keeps every
 * page a burst ever used; with 10 s a burst's memory still goes back (test/cli/launch-settings.test.ts).
 */
export const ALLOCATOR_ENV = { MIMALLOC_PURGE_HOLES: "0", MIMALLOC_PURGE_DELAY: "10000" } as const;

const Int = (min: number, max: number, def: number, description: string) => Type.Integer({ minimum: min, maximum: max, default: def, description });
const Num = (min: number, max: number, def: number, description: string) => Type.Number({ minimum: min, maximum: max, default: def, description });

/**
 * Every setting, its type, range and default. Values come from (lowest to highest precedence) these
 * defaults, the optional JSON config file named by SVC_CONFIG, and SVC_* environment variables.
 * A bad value stops the start with a message naming the setting.
 */
export const SettingsSchema = Type.Object(
  {
    host: Type.String({ minLength: 1, default: "127.0.0.1", description: "listen address" }),
    port: Int(0, 65535, 8080, "listen port (0 = any free port)"),
    dataDir: Type.String({ minLength: 1, default: "./data", description: "SQLite store and generated secret" }),
    databaseUrl: Type.Optional(
      Type.String({
        minLength: 1,
        description: "postgres://user:password@host:5432/db: the whole store on PostgreSQL, shared by every gateway node (SQLite in dataDir when absent)",
      }),
    ),
    nodeId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: "this node's name among the nodes of one PostgreSQL store (default: the hostname)" }),
    ),
    secret: Type.Optional(Type.String({ minLength: 32, description: "HMAC secret for key hashes; generated into dataDir when absent" })),
    logLevel: Type.Union(
      [Type.Literal("fatal"), Type.Literal("error"), Type.Literal("warn"), Type.Literal("info"), Type.Literal("debug"), Type.Literal("silent")],
      { default: "info" },
    ),
    maxBodyBytes: Int(1024, 256 * 1024 * 1024, 4 * 1024 * 1024, "largest accepted request body"),
    maxUrlBytes: Int(256, PARSER_HEADER_BYTES, 8 * 1024, "longest accepted URL (path and query); longer is a 414"),
    maxHeaderBytes: Int(1024, PARSER_HEADER_BYTES, 16 * 1024, "largest accepted header block; larger is a 431"),
    modelsFile: Type.Optional(Type.String({ minLength: 1, description: "operator's copy of src/catalog/models.json" })),
    capabilitiesFile: Type.Optional(Type.String({ minLength: 1, description: "operator's copy of src/catalog/capabilities.json" })),
    embeddingModelDir: Type.Optional(
      Type.String({ minLength: 1, description: "a sentence-transformers ONNX export to embed with instead of the shipped model" }),
    ),
    plansFile: Type.Optional(Type.String({ minLength: 1, description: "operator's copy of src/catalog/plans.json" })),
    bootstrapAdminKey: Type.Optional(Type.String({ minLength: 1, description: "an admin key value to register at start" })),
    redisUrl: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "Redis shared by every gateway node: quota, budget and agent-run counters, key-change broadcast, the cache's entries and request coalescing",
      }),
    ),
    redisPrefix: Type.String({
      pattern: "^[A-Za-z0-9_.-]{1,64}$",
      default: "svc",
      description: "prefix of every Redis key and channel (one per deployment sharing a Redis)",
    }),
    keySyncMs: Int(20, 60_000, 250, "how often a server picks up keys created or revoked elsewhere"),
    flushMs: Int(10, 60_000, 1000, "how often usage counters, last_used_at and ledger rows are written"),
    testKeyDailyCalls: Int(1, 1_000_000_000, 100, "calls per UTC day for svc_test_ keys"),
    providerTimeoutMs: Int(100, 3_600_000, 60_000, "per upstream attempt: the whole answer, or a stream's longest silence"),
    requestTimeoutMs: Int(100, 86_400_000, 600_000, "one deadline per call over every attempt, backoff and fallback, and a stream to its end"),
    upstreamMaxBytes: Int(1024, 1024 * 1024 * 1024, 32 * 1024 * 1024, "largest upstream answer accepted (a stream's bytes added up); larger is a 502"),
    providerRetries: Int(0, 10, 2, "retries per provider on 429/5xx/connection errors"),
    providerRetryBaseMs: Int(1, 60_000, 100, "first backoff; doubles each retry"),
    workers: Int(0, 64, Math.max(1, availableParallelism()), "worker threads for CPU stages (0 = run inline)"),
    workerQueueLimit: Int(1, 1_000_000, 1024, "queued CPU tasks before 503 OVERLOADED"),
    inlineMaxChars: Int(0, 10_000_000, 4000, "requests that need no model and are at most this long run on the event loop, skipping the worker hop"),
    inlineModelMaxChars: Int(
      0,
      10_000_000,
      2000,
      "requests that need a model and are at most this long run on the event loop when no other optimizer task is in flight (0 = always the workers)",
    ),
    optimizerWarmRuns: Int(
      0,
      100_000,
      500,
      "runs of the event loop's optimizer on built-in prompts after start, so the first lone requests do not wait for the JIT (0 = none)",
    ),
    cacheMaxEntries: Int(1, 100_000_000, 100_000, "response cache entries kept; least recently used go first"),
    cacheTtlS: Int(1, 31_536_000, 86_400, "how long a cached answer may be served"),
    cacheSynonymsFile: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'the operator\'s synonym table for the cache verifier ({ groups: ["couch sofa", ...] }, stems as the verifier writes them); none ships',
      }),
    ),
    cacheUnsetTemperature: Type.Boolean({
      default: true,
      description: "cache requests that set no temperature (sampled at the provider's default, 1, which the cache admits when written out)",
    }),
    optimizeMemoEntries: Int(0, 10_000_000, 10_000, "optimizer results remembered for repeated requests (0 = off)"),
    workerTaskTimeoutMs: Int(
      10,
      600_000,
      10_000,
      `a CPU task that waits this long for a worker (503) or runs this long (500) fails; a task still running ${WORKER_HANG_FACTOR} times as long is cut and its worker replaced`,
    ),
    qualityFloor: Num(0, 100, 85, "compressions scoring below this undo, rule by rule, the edits that cost the score"),
    playgroundPerMinute: Int(1, 1_000_000, 60, "POST /v1/playground calls per minute per client address block (IPv4 /24, IPv6 /64, all of loopback)"),
    playgroundMaxBytes: Int(1024, 256 * 1024 * 1024, 64 * 1024, "largest POST /v1/playground body: the playground is for trying prompts, not for load"),
    playgroundConcurrency: Int(
      1,
      64,
      1,
      "POST /v1/playground analyses running at once; more are refused (503), so the unauthenticated page never takes the CPU stages from keyed calls",
    ),
    conversationTurnsToKeep: Int(
      1,
      10_000,
      20,
      "conversation turns (messages) sent as they are when a call names conversation_id without max_turns_to_keep; older ones go into the summary",
    ),
    conversationSummaryStep: Int(
      1,
      1000,
      8,
      "the summary of a conversation is rewritten only when this many turns beyond max_turns_to_keep have gathered, so the prefix a provider caches stays byte-identical between steps",
    ),
    conversationMaxTurns: Int(
      1,
      1_000_000,
      2000,
      "turns one conversation may hold; a call that would store more is refused (400) until the conversation is deleted",
    ),
    messageMemoChars: Int(
      0,
      2_000_000_000,
      16_000_000,
      "characters of messages (original and sent form) remembered so a call resending its history without conversation_id reuses each earlier message's sent form; 0 turns this off",
    ),
    responsesTtlS: Int(
      60,
      10 * 365 * 86_400,
      30 * 86_400,
      "how long a stored Responses API response (store: true) is found by previous_response_id and GET /v1/responses/{id}",
    ),
    responsesMaxPerApp: Int(1, 100_000_000, 100_000, "stored Responses API responses kept per app; beyond, the oldest go"),
    responsesMaxBytes: Int(
      1024,
      256 * 1024 * 1024,
      4 * 1024 * 1024,
      "largest stored Responses API response (its conversation so far and the response, as JSON); a larger one is answered but not stored",
    ),
    conversationSummaryModel: Type.String({
      default: "",
      description:
        "the model that writes a conversation's summary steps: a model id, or 'cheapest' (the cheapest tier's cheapest configured model); empty: extractive, no provider call",
    }),
    anthropicCacheControl: Type.Boolean({
      default: true,
      description: "mark the stable prefix (protocol, system prompt, summary, older turns) with Anthropic cache_control breakpoints",
    }),
    agentRunMaxCostUsd: Num(0, 1_000_000, 0, "default cost limit of an agent run in USD (0 = none); PUT /api/agent-runs/{id} sets a run's own"),
    agentRunMaxCalls: Int(0, 1_000_000_000, 0, "default call limit of an agent run (0 = none)"),
    agentRunMaxRepeats: Int(
      1,
      1_000_000,
      3,
      "an agent run's guard trips when the same step (tool calls and their results) comes this many times more in a row",
    ),
    agentRunWrapUpAt: Num(
      0,
      1,
      0,
      "share of an agent run's call or cost limit from which svc adds a short 'wrap up' system instruction to the run's calls (0 = never)",
    ),
    // The names are PII_TYPES of src/pipeline/pii/types.ts (test/pii/request.test.ts checks they agree).
    piiTypes: Type.String({
      pattern:
        "^(?:EMAIL|PHONE|CARD|IBAN|SSN|IP|URL_CREDENTIALS|SECRET|PERSON|ADDRESS)(?:,(?:EMAIL|PHONE|CARD|IBAN|SSN|IP|URL_CREDENTIALS|SECRET|PERSON|ADDRESS))*$",
      default: "EMAIL,PHONE,CARD,IBAN,SSN,IP,URL_CREDENTIALS,SECRET,PERSON,ADDRESS",
      description: "the PII detectors svc_options.mask_pii runs, comma-separated",
    }),
    shutdownGraceMs: Int(0, 600_000, 10_000, "how long in-flight requests may take at shutdown"),
    metricsHost: Type.Optional(Type.String({ minLength: 1, description: "serve /metrics without a key on this separate address" })),
    metricsPort: Int(0, 65535, 9464, "port for metricsHost"),
    debugHeap: Type.Boolean({
      default: false,
      description: "GET /debug/heap for admin keys: a full garbage collection, then the live heap and RSS (leak hunting; the collection pauses every request)",
    }),
  },
  { additionalProperties: false },
);

export type Settings = Static<typeof SettingsSchema>;

/** SVC_FOO_BAR ↔ fooBar: every setting has exactly one env var. */
export function envName(key: string): string {
  return "SVC_" + key.replace(/[A-Z]/g, (c) => "_" + c).toUpperCase();
}

export class ConfigError extends Error {}

function fromEnv(env: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(SettingsSchema.properties)) {
    const raw = env[envName(key)];
    if (raw === undefined || raw === "") continue;
    const kind = (schema as { type?: string }).type;
    if (kind === "integer" || kind === "number") {
      const n = Number(raw);
      if (!Number.isFinite(n)) throw new ConfigError(`${envName(key)}: '${raw}' is not a number`);
      out[key] = n;
    } else if (kind === "boolean") {
      if (!/^(?:true|false|1|0)$/.test(raw)) throw new ConfigError(`${envName(key)}: '${raw}' is not true, false, 1 or 0`);
      out[key] = raw === "true" || raw === "1";
    } else {
      out[key] = raw;
    }
  }
  return out;
}

function fromFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) throw new ConfigError(`SVC_CONFIG: no file at ${path}`);
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not a JSON object");
    return parsed as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError(`SVC_CONFIG: ${path}: ${(e as Error).message}`);
  }
}

/** Builds and checks the settings; throws ConfigError naming the first bad setting. */
export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  const file = env.SVC_CONFIG ? fromFile(env.SVC_CONFIG) : {};
  const merged = Value.Default(SettingsSchema, { ...file, ...fromEnv(env) }) as Record<string, unknown>;
  const first = Value.Errors(SettingsSchema, merged).First();
  if (first) {
    const key = first.path.replace(/^\//, "") || "(config)";
    const source = key in SettingsSchema.properties ? `${envName(key)} / ${key}` : key;
    throw new ConfigError(`invalid setting ${source}: ${first.message}${first.value === undefined ? "" : ` (got ${JSON.stringify(first.value)})`}`);
  }
  // Checked here rather than by a schema pattern, whose message would print the URL and its password.
  if (typeof merged.redisUrl === "string" && !/^rediss?:\/\//.test(merged.redisUrl))
    throw new ConfigError("invalid setting SVC_REDIS_URL / redisUrl: must start with redis:// or rediss:// (the value is not shown: it may hold a password)");
  if (typeof merged.databaseUrl === "string" && !/^postgres(?:ql)?:\/\//.test(merged.databaseUrl))
    throw new ConfigError(
      "invalid setting SVC_DATABASE_URL / databaseUrl: must start with postgres:// or postgresql:// (the value is not shown: it may hold a password)",
    );
  // Key hashes are HMACs under the secret: nodes sharing one PostgreSQL store must share it, and a
  // secret generated into each node's data directory would make every node refuse the others' keys.
  if (merged.databaseUrl !== undefined && merged.secret === undefined)
    throw new ConfigError("SVC_SECRET is required with SVC_DATABASE_URL: every node sharing the store must hash keys with the same secret");
  return merged as Settings;
}
