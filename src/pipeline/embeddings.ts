import type { Services } from "./services";
import type { KeyEntry } from "../auth/key-record";
import type { ModelInfo } from "../catalog/catalog";
import { ApiError, validationError } from "../core/errors";
import type { Embedder } from "../ml/types";
import { loadEmbedder, modelOptionsOf } from "../ml/load";
import { UpstreamFailure } from "../providers/call";
import { ProviderError, type Usage } from "../providers/types";
import { countTokens } from "../tokens/count";
import { openCall, type CallContext, type Outcome, type Plan } from "./call";
import type { CompletionRequest } from "./request";
import { admit, planned, type Stage } from "./stage";
import { buildStages, EMBEDDING_STAGES, type EmbeddingStageServices } from "./stages";
import { price, settle } from "./settle";

/** The parsed body of POST /v1/embeddings (OpenAI's shape). */
export interface EmbeddingsRequest {
  model: string;
  /** Strings; token-id arrays are accepted for a forwarding provider only. */
  input: string | string[] | number[] | number[][];
  encoding_format: "float" | "base64";
  /** The body as the client sent it, forwarded to an OpenAI-format provider unchanged (svc_options aside). */
  raw: Record<string, unknown>;
  /** `svc_options.budget_id` / `agent_run_id`: the call counts against them as a completion does. */
  budget_id?: string;
  agent_run_id?: string;
}

const MAX_INPUTS = 2048;

export function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("body", "must be a JSON object");
  const b = body as Record<string, unknown>;
  if (typeof b.model !== "string" || b.model.length === 0) throw validationError("model", "required: a model id");
  const input = b.input;
  const ok =
    typeof input === "string" ||
    (Array.isArray(input) &&
      input.length > 0 &&
      input.length <= MAX_INPUTS &&
      (input.every((x) => typeof x === "string") ||
        input.every((x) => Number.isInteger(x)) ||
        input.every((x) => Array.isArray(x) && x.every(Number.isInteger))));
  if (!ok) throw validationError("input", `must be a string, an array of up to ${MAX_INPUTS} strings, or token ids`);
  const format = b.encoding_format ?? "float";
  if (format !== "float" && format !== "base64") throw validationError("encoding_format", "must be 'float' or 'base64'");
  const { svc_options: options, ...raw } = b;
  const o = options ?? {};
  if (typeof o !== "object" || Array.isArray(o)) throw validationError("svc_options", "must be an object");
  const ids: { budget_id?: string; agent_run_id?: string } = {};
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
    if (k !== "budget_id" && k !== "agent_run_id") throw validationError(`svc_options.${k}`, "unknown option for embeddings; valid: budget_id, agent_run_id");
    if (typeof v !== "string" || v.length === 0 || v.length > 200) throw validationError(`svc_options.${k}`, "must be an id of 1 to 200 characters");
    ids[k] = v;
  }
  return { model: b.model, input: input as EmbeddingsRequest["input"], encoding_format: format, raw, ...ids };
}

export type EmbeddingServices = Pick<Services, "catalog" | "providers" | "callPolicy" | "settings" | "ledger" | "metrics" | "tracer"> & EmbeddingStageServices;

let own: Promise<Embedder> | undefined;

/**
 * POST /v1/embeddings: svc's own embedding model under its catalog name (`embedding_model`, default
 * svc-embed-1: the 256-dimensional model the cache uses, or the operator's SVC_EMBEDDING_MODEL_DIR), or
 * forwarded to a provider whose wire format has embeddings (OpenAI and OpenAI-compatible servers), body
 * and answer unchanged. With no provider configured the simulator's gateway serves every name with svc's
 * own model. One attempt, no fallback: vectors of another model would not be comparable.
 *
 * A billable call like a completion: admitted through the embedding stages (quota, budget, agent run),
 * its cost reserved once the model is known, and settled once through the same settle, which writes its
 * ledger row (svc's own model costs nothing: it runs here).
 */
export class Embeddings {
  private readonly stages: readonly Stage[];

  constructor(private readonly s: EmbeddingServices) {
    this.stages = buildStages(s, EMBEDDING_STAGES);
  }

  async create(key: KeyEntry, req: EmbeddingsRequest, ctx: CallContext): Promise<unknown> {
    const { s } = this;
    const call = openCall(key, completionRequestOf(req), ctx);
    try {
      await admit(call, this.stages);
      call.marks.admitted = performance.now();
    } catch (e) {
      settle(s, call, { kind: "refused", error: e });
      throw e;
    }
    try {
      const ownModel = req.model === s.catalog.embeddingModel || s.providers.simulatedOnly;
      const model = ownModel ? s.catalog.ownEmbedding : s.catalog.resolve(req.model);
      const plan: Plan = { opt: passThrough(call.req), candidates: [model], requested: model, reason: "explicit_model" };
      call.plan = plan;
      const reserving = planned(call, plan);
      if (reserving) await reserving;
      const started = performance.now();
      const body = ownModel ? await ownEmbeddings(s, req) : await this.forward(model, req, ctx.signal);
      const outcome: Outcome = {
        served: model,
        choices: [],
        usage: usageOf(body, req),
        reason: "explicit_model",
        cacheHit: false,
        upstreamMs: ownModel ? 0 : performance.now() - started,
        simulated: ownModel && s.providers.simulatedOnly,
        cacheable: false,
      };
      await settle(s, call, { kind: "answered", path: "json", outcome, priced: price(s, call, plan, outcome) });
      return body;
    } catch (e) {
      // The error answer too waits for the call's row to be journaled (Ledger.record).
      await settle(s, call, { kind: "failed", error: e });
      throw e;
    }
  }

  private async forward(model: ModelInfo, req: EmbeddingsRequest, signal: AbortSignal): Promise<unknown> {
    const provider = this.s.providers.providerFor(model);
    if (!provider) throw new ApiError("NO_PROVIDER", `no configured provider serves '${model.id}'`);
    if (!provider.embed)
      throw validationError(
        "model",
        `'${model.id}' is served by ${provider.name}, whose API has no embeddings in OpenAI's format; use ${this.s.catalog.embeddingModel} or an OpenAI model`,
      );
    const started = performance.now();
    const { timeoutMs, totalMs, maxAnswerBytes } = this.s.callPolicy;
    try {
      // The call's one deadline and answer cap, as a completion's (issue 23).
      return await provider.embed({ body: { ...req.raw, model: model.id }, signal, timeoutMs, deadlineAt: started + totalMs, maxAnswerBytes });
    } catch (e) {
      if (!(e instanceof ProviderError) || e.kind === "aborted") throw e;
      const ms = performance.now() - started;
      const attempt = { model: model.id, provider: provider.name, outcome: e.kind, error: e.message, ms };
      throw new UpstreamFailure(e.kind === "timeout" || e.kind === "deadline" ? "UPSTREAM_TIMEOUT" : "UPSTREAM_ERROR", e.message, [attempt], ms, e);
    }
  }
}

/** The call as the stages and the ledger see it: its texts as user messages, nothing to complete. */
function completionRequestOf(req: EmbeddingsRequest): CompletionRequest {
  const inputs = typeof req.input === "string" ? [req.input] : req.input;
  return {
    messages: inputs.map((x) => ({ role: "user", content: typeof x === "string" ? x : JSON.stringify(x) })),
    model: req.model,
    max_tokens: 0,
    stream: false,
    params: {},
    svc_options: {
      compress: false,
      route: false,
      cache: false,
      cache_nondeterministic: false,
      score: false,
      mask_pii: false,
      max_aggressiveness: 0,
      skip_rules: [],
      ...(req.budget_id !== undefined && { budget_id: req.budget_id }),
      ...(req.agent_run_id !== undefined && { agent_run_id: req.agent_run_id }),
    },
  };
}

/** No optimizer runs on embeddings: what is sent is what was asked. */
function passThrough(req: CompletionRequest): Plan["opt"] {
  return {
    messages: req.messages,
    compressionRatio: 1,
    rulesApplied: [],
    route: { ok: false, reason: "explicit_model", message: "" },
    pii: [],
    piiMasked: false,
    cacheText: "",
  };
}

/** The provider's count of the input; our own (o200k, or the token ids' count) when it reports none. */
function usageOf(body: unknown, req: EmbeddingsRequest): Usage {
  const reported = (body as { usage?: { prompt_tokens?: unknown } } | null)?.usage?.prompt_tokens;
  const inputs = typeof req.input === "string" ? [req.input] : req.input;
  const prompt =
    typeof reported === "number" && Number.isFinite(reported) && reported >= 0
      ? reported
      : inputs.reduce<number>((n, x) => n + (typeof x === "string" ? countTokens(x) : Array.isArray(x) ? x.length : 1), 0);
  return { prompt_tokens: prompt, completion_tokens: 0 };
}

async function ownEmbeddings(gw: Pick<Services, "catalog" | "settings">, req: EmbeddingsRequest) {
  const texts = typeof req.input === "string" ? [req.input] : req.input;
  if (!texts.every((t) => typeof t === "string")) throw validationError("input", `${gw.catalog.embeddingModel} takes text, not token ids`);
  const embedder = await (own ??= loadEmbedder(modelOptionsOf(gw.settings)));
  const data = [];
  let tokens = 0;
  for (const [index, text] of (texts as string[]).entries()) {
    const vector = await embedder.embed(text);
    tokens += countTokens(text);
    data.push({
      object: "embedding",
      index,
      embedding: req.encoding_format === "base64" ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64") : Array.from(vector),
    });
  }
  return { object: "list", data, model: gw.catalog.embeddingModel, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}
