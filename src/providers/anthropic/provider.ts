import { postForEvents, postJson, type UpstreamPost } from "../shared/upstream-http";
import { ProviderError, type Provider, type ProviderRequest, type ProviderResponse, type StreamEvent } from "../types";
import { toAnthropicRequest } from "./request";
import { fromAnthropicResponse, type AnthropicResponse } from "./response";
import { AnthropicStreamMapper } from "./stream";

export interface AnthropicProviderConfig {
  apiKey: string;
  /** Without the /v1 segment, e.g. https://api.anthropic.com. */
  baseUrl?: string;
}

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

/** Provider A: the Anthropic Messages API. */
export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  readonly simulated = false;
  private readonly baseUrl: string;
  /** Fixed per provider and built once: the upstream client keeps the request head it writes per headers object. */
  private readonly headers: Readonly<Record<string, string>>;
  private readonly secrets: readonly string[];

  constructor(config: AnthropicProviderConfig) {
    this.baseUrl = (config.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, "");
    this.headers = { "x-api-key": config.apiKey, "anthropic-version": ANTHROPIC_VERSION };
    this.secrets = [config.apiKey];
  }

  async complete(req: ProviderRequest): Promise<ProviderResponse> {
    return fromAnthropicResponse((await postJson(this.post(req, false))) as AnthropicResponse);
  }

  async *stream(req: ProviderRequest): AsyncGenerator<StreamEvent> {
    const mapper = new AnthropicStreamMapper();
    for await (const event of postForEvents(this.post(req, true))) {
      yield* mapper.map(event);
      if (mapper.complete) return;
    }
    throw new ProviderError("connection", `${this.name} ended the stream before message_stop`);
  }

  private post(req: ProviderRequest, stream: boolean): UpstreamPost {
    return {
      provider: this.name,
      url: `${this.baseUrl}/v1/messages`,
      headers: this.headers,
      body: toAnthropicRequest(req, stream),
      signal: req.signal,
      timeoutMs: req.timeoutMs,
      deadlineAt: req.deadlineAt,
      maxAnswerBytes: req.maxAnswerBytes,
      secrets: this.secrets,
    };
  }
}
