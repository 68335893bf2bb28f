import { postForEvents, postJson, type UpstreamPost } from "../shared/upstream-http";
import { ProviderError, type Provider, type ProviderRequest, type ProviderResponse, type StreamEvent } from "../types";
import { toGeminiRequest } from "./request";
import { fromGeminiResponse, type GeminiResponse } from "./response";
import { GeminiStreamMapper } from "./stream";

export interface GeminiProviderConfig {
  apiKey: string;
  /** Without the version segment, e.g. https://generativelanguage.googleapis.com. */
  baseUrl?: string;
}

export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

/** Provider C: Gemini generateContent and streamGenerateContent. The key goes in a header, never in the URL. */
export class GeminiProvider implements Provider {
  readonly name = "gemini";
  readonly simulated = false;
  private readonly baseUrl: string;
  /** Fixed per provider and built once: the upstream client keeps the request head it writes per headers object. */
  private readonly headers: Readonly<Record<string, string>>;
  private readonly secrets: readonly string[];

  constructor(config: GeminiProviderConfig) {
    this.baseUrl = (config.baseUrl ?? GEMINI_BASE_URL).replace(/\/+$/, "");
    this.headers = { "x-goog-api-key": config.apiKey };
    this.secrets = [config.apiKey];
  }

  async complete(req: ProviderRequest): Promise<ProviderResponse> {
    return fromGeminiResponse((await postJson(this.post(req, "generateContent"))) as GeminiResponse);
  }

  async *stream(req: ProviderRequest): AsyncGenerator<StreamEvent> {
    const mapper = new GeminiStreamMapper();
    for await (const event of postForEvents(this.post(req, "streamGenerateContent?alt=sse"))) yield* mapper.map(event);
    if (!mapper.complete) throw new ProviderError("connection", `${this.name} ended the stream before a finishReason`);
    const usage = mapper.finalUsage;
    if (usage) yield { kind: "usage", usage };
  }

  private post(req: ProviderRequest, method: string): UpstreamPost {
    return {
      provider: this.name,
      url: `${this.baseUrl}/v1beta/models/${encodeURIComponent(req.model)}:${method}`,
      headers: this.headers,
      body: toGeminiRequest(req),
      signal: req.signal,
      timeoutMs: req.timeoutMs,
      deadlineAt: req.deadlineAt,
      maxAnswerBytes: req.maxAnswerBytes,
      secrets: this.secrets,
    };
  }
}
