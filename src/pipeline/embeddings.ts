import type { Services } from "./services";
import type { KeyEntry } from "../auth/key-record";
import { ApiError, validationError } from "../core/errors";
import type { Embedder } from "../ml/types";
import { loadEmbedder, modelOptionsOf } from "../ml/load";
import { UpstreamFailure } from "../providers/call";
import { ProviderError } from "../providers/types";
import { countTokens } from "../tokens/count";

/** The parsed body of POST /v1/embeddings (OpenAI's shape). */
export interface EmbeddingsRequest {
  model: string;
  /** Strings; token-id arrays are accepted for a forwarding provider only. */
  input: string | string[] | number[] | number[][];
  encoding_format: "float" | "base64";
  /** The body as the client sent it, forwarded to an OpenAI-format provider unchanged. */
  raw: Record<string, unknown>;
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
  return { model: b.model, input: input as EmbeddingsRequest["input"], encoding_format: format, raw: b };
}

export type EmbeddingServices = Pick<Services, "catalog" | "providers" | "quota" | "callPolicy" | "settings">;

let own: Promise<Embedder> | undefined;

/**
 * POST /v1/embeddings: svc's own embedding model under its catalog name (`embedding_model`, default
 * svc-embed-1: the 256-dimensional model the cache uses, or the operator's SVC_EMBEDDING_MODEL_DIR), or
 * forwarded to a provider whose wire format has embeddings (OpenAI and OpenAI-compatible servers), body
 * and answer unchanged. With no provider configured the simulator's gateway serves every name with svc's
 * own model. One attempt, no fallback: vectors of another model would not be comparable.
 */
export async function embeddings(gw: EmbeddingServices, key: KeyEntry, req: EmbeddingsRequest, signal: AbortSignal): Promise<unknown> {
  const ticket = await gw.quota.consume(key, Date.now());
  try {
    if (req.model === gw.catalog.embeddingModel || gw.providers.simulatedOnly) return await ownEmbeddings(gw, req);
    const model = gw.catalog.resolve(req.model);
    const provider = gw.providers.providerFor(model);
    if (!provider) throw new ApiError("NO_PROVIDER", `no configured provider serves '${model.id}'`);
    if (!provider.embed)
      throw validationError(
        "model",
        `'${model.id}' is served by ${provider.name}, whose API has no embeddings in OpenAI's format; use ${gw.catalog.embeddingModel} or an OpenAI model`,
      );
    try {
      return await provider.embed({ body: { ...req.raw, model: model.id }, signal, timeoutMs: gw.callPolicy.timeoutMs });
    } catch (e) {
      if (!(e instanceof ProviderError) || e.kind === "aborted") throw e;
      const attempt = { model: model.id, provider: provider.name, outcome: e.kind, error: e.message, ms: 0 };
      throw new UpstreamFailure(e.kind === "timeout" ? "UPSTREAM_TIMEOUT" : "UPSTREAM_ERROR", e.message, [attempt], 0, e);
    }
  } catch (e) {
    gw.quota.refund(ticket);
    throw e;
  }
}

async function ownEmbeddings(gw: EmbeddingServices, req: EmbeddingsRequest) {
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
