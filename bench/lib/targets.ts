import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { answers, jsonLineField, pinned, ROOT, startService, type Service } from "./processes";
import { PROMPT_SLOT, requestBody, type Workload } from "./workload";
import type { LoadSpec } from "./wrk";
import { ALLOCATOR_ENV, PARSER_FLAG } from "../../src/config/config";

const BUN = process.execPath;

export interface MockSettings {
  latencyMs: number;
  chunkDelayMs: number;
}

/** The provider developer's OpenAI mock as its own process; `url` is its base URL (ending in /v1). */
export function startMock(logDir: string, cores: string | undefined, s: MockSettings, name = "mock"): Promise<Service> {
  const cmd = [
    BUN,
    join(ROOT, "test", "mocks", "openai-mock.ts"),
    "--port",
    "0",
    "--latency-ms",
    String(s.latencyMs),
    "--chunk-delay-ms",
    String(s.chunkDelayMs),
  ];
  return startService({ name, cmd: pinned(cores, cmd), logDir, ready: (out) => jsonLineField(out, "url") });
}

export function startBareProxy(logDir: string, cores: string | undefined, mockUrl: string, name = "bare-proxy"): Promise<Service> {
  const cmd = [BUN, join(ROOT, "bench", "bare-proxy.ts"), "--upstream", mockUrl, "--port", "0"];
  return startService({ name, cmd: pinned(cores, cmd), logDir, ready: (out) => jsonLineField(out, "url") });
}

/**
 * The response cache and the optimizer memo of the benchmarked gateway hold this many entries
 * (defaults 100,000 and 10,000): both reach their bound within a soak of minutes, so memory that
 * still grows after it is a leak, not a cache filling up.
 */
export const BOUNDED_ENTRIES = 2000;

export interface GatewayService extends Service {
  /** A live admin key on a plan with a billion calls a month, so quotas never cut a run short. */
  key: string;
}

/**
 * `svc serve` the way a user runs it: a fresh data directory, OpenAI-family models sent to the mock,
 * and a key created with `svc keys create --admin --json` before the server starts.
 */
export async function startGateway(
  logDir: string,
  cores: string | undefined,
  mockUrl: string,
  logLevel: string,
  name = `svc-${logLevel}`,
  bunFlags: string[] = [],
  /** The source tree whose gateway runs: this checkout, or another one (e.g. an older commit) to compare with. */
  root = ROOT,
  /** More settings (a Redis, a shared store), and the data directory of a node sharing another's store. */
  extra: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<GatewayService> {
  const dataDir = extra.dataDir ?? join(logDir, name);
  mkdirSync(dataDir, { recursive: true });
  const plansFile = join(dataDir, "plans.json");
  writeFileSync(plansFile, JSON.stringify({ default_plan: "bench", plans: [{ id: "bench", monthly_calls: 1_000_000_000 }] }));
  // A chosen port rather than 0: below info level the server logs no "svc listening" line to read it from.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = {
    SVC_DATA_DIR: dataDir,
    SVC_PORT: String(port),
    SVC_HOST: "127.0.0.1",
    SVC_LOG_LEVEL: logLevel,
    SVC_CACHE_MAX_ENTRIES: String(BOUNDED_ENTRIES),
    SVC_OPTIMIZE_MEMO_ENTRIES: String(BOUNDED_ENTRIES),
    SVC_PLANS_FILE: plansFile,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: mockUrl,
    // The soak reads the heap after full collections (GET /debug/heap); no other phase calls it.
    SVC_DEBUG_HEAP: "true",
    // What `npm start` and the `svc` command set (ALLOCATOR_ENV; MIMALLOC_PURGE_HOLES in the README): a
    // gateway run without them spent 2-3x the CPU per relayed call in the allocator's purging and the
    // page faults after it (bun bench/relay-cpu.ts, same tree with and without). The caller's environment wins.
    ...Object.fromEntries(Object.entries(ALLOCATOR_ENV).map(([name, value]) => [name, process.env[name] ?? value])),
    ...extra.env,
  };
  const cli = join(root, "src", "cli", "main.ts");
  const created = Bun.spawnSync([BUN, cli, "keys", "create", "--admin", "--json"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  if (created.exitCode !== 0) throw new Error(`svc keys create failed: ${created.stderr.toString()}`);
  const key = (JSON.parse(created.stdout.toString()) as { key: string }).key;
  const service = await startService({
    name,
    cmd: pinned(cores, [BUN, PARSER_FLAG, ...bunFlags, cli, "serve"]),
    env,
    logDir,
    ready: () => answers(url, "/health"),
    timeoutMs: 60_000,
  });
  return { ...service, key };
}

export const PORTKEY_VERSION = "1.15.2";
const PEERS = join(ROOT, "bench", ".peers");
const PORTKEY_ENTRY = join(PEERS, "node_modules", "@portkey-ai", "gateway", "build", "start-server.js");

/** A port nobody listens on right now (Portkey's server takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The Portkey AI gateway (open-source build from npm), installed on demand into bench/.peers (git-ignored,
 * never a project dependency) and run with Bun. Answers undefined with the reason when it cannot run here.
 */
export async function startPortkey(logDir: string, cores: string | undefined, say: (line: string) => void): Promise<{ service?: Service; reason?: string }> {
  if (!existsSync(PORTKEY_ENTRY)) {
    say(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into bench/.peers (not a project dependency)`);
    mkdirSync(PEERS, { recursive: true });
    if (!existsSync(join(PEERS, "package.json"))) writeFileSync(join(PEERS, "package.json"), '{"private":true}\n');
    const r = Bun.spawnSync(
      ["flock", "/tmp/svc-npm.lock", "npm", "install", "--no-audit", "--no-fund", "--no-package-lock", `@portkey-ai/gateway@${PORTKEY_VERSION}`],
      { cwd: PEERS, stdout: "pipe", stderr: "pipe" },
    );
    if (r.exitCode !== 0 || !existsSync(PORTKEY_ENTRY)) return { reason: `npm install @portkey-ai/gateway failed: ${r.stderr.toString().trim().slice(-300)}` };
  }
  const port = await freePort();
  try {
    const service = await startService({
      name: "portkey",
      cmd: pinned(cores, [BUN, PORTKEY_ENTRY, `--port=${port}`, "--headless"]),
      env: { NODE_ENV: "production" },
      logDir,
      ready: () => answers(`http://127.0.0.1:${port}`, "/"),
    });
    return { service };
  } catch (e) {
    return { reason: `Portkey did not start: ${(e as Error).message.slice(0, 300)}` };
  }
}

/** Headers that make Portkey relay to our mock through its OpenAI provider. */
export function portkeyHeaders(mockUrl: string): Record<string, string> {
  return { "x-portkey-provider": "openai", "x-portkey-custom-host": mockUrl, authorization: "Bearer sk-bench" };
}

/** The gateway's three configurations as load targets: pure relay, every stage on with fresh prompts (misses), and a repeated request (hits). */
export function gatewaySpecs(gw: GatewayService, w: Workload, stream: boolean): Record<"relay" | "miss" | "hit", LoadSpec> {
  const headers = { authorization: `Bearer ${gw.key}` };
  const url = `${gw.url}/v1/complete`;
  const body = (kind: "relay" | "auto", prompt: string) => JSON.stringify(requestBody(kind, prompt, stream));
  return {
    relay: { url, headers, body: body("relay", w.fixedPrompt) },
    miss: { url, headers, body: body("auto", PROMPT_SLOT) },
    hit: { url, headers, body: body("auto", w.fixedPrompt) },
  };
}

/**
 * A `--tree` argument of the tree benchmarks: `name=/path`, optionally with settings for that gateway
 * after a colon (`name=/path:SVC_X=1,MIMALLOC_PURGE_DELAY=1000`), so one tree can run beside itself
 * with other settings.
 */
export function treeSpec(spec: string): { name: string; path: string; env: Record<string, string> } {
  const [name, rest] = spec.split(/=(.*)/s) as [string, string | undefined];
  if (!rest) throw new Error(`--tree wants name=/path, got '${spec}'`);
  const [path, settings] = rest.split(":") as [string, string | undefined];
  const env = Object.fromEntries(
    (settings ?? "")
      .split(",")
      .filter(Boolean)
      .map((kv) => kv.split("=") as [string, string]),
  );
  return { name, path: resolve(path), env };
}
