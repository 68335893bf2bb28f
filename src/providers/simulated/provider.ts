import type { Catalog } from "../../catalog/catalog";
import { countMessageTokens, countTokens, tokenizerFor, type TokenizerFamily } from "../../tokens/count";
import { ProviderError, type Choice, type FinishReason, type Provider, type ProviderRequest, type ProviderResponse, type StreamEvent } from "../types";
import { simulatedAnswer } from "./answer";

export const SIMULATED_NAME = "simulated";

/**
 * Answers every catalog model locally when no provider key is configured, so the gateway runs out of the
 * box. Token counts use the model's real tokenizer so costs and savings stay meaningful.
 */
export class SimulatedProvider implements Provider {
  readonly name = SIMULATED_NAME;
  readonly simulated = true;

  constructor(private readonly catalog: Catalog) {}

  async complete(req: ProviderRequest): Promise<ProviderResponse> {
    this.checkAborted(req);
    const family = this.family(req.model);
    const choices: Choice[] = [];
    let completion = 0;
    for (let index = 0; index < Math.max(1, req.params.n ?? 1); index++) {
      const { text, finish } = this.answer(req, index, family);
      completion += countTokens(text, family);
      choices.push({ index, message: { role: "assistant", content: text }, finish_reason: finish });
    }
    return { choices, usage: { prompt_tokens: countMessageTokens(req.messages, family), completion_tokens: completion } };
  }

  async *stream(req: ProviderRequest): AsyncGenerator<StreamEvent> {
    const family = this.family(req.model);
    const { text, finish } = this.answer(req, 0, family);
    const words = text.match(/\S+\s*/g) ?? [];
    yield { kind: "delta", delta: { index: 0, delta: { role: "assistant" }, finish_reason: null } };
    for (const word of words) {
      this.checkAborted(req);
      yield { kind: "delta", delta: { index: 0, delta: { content: word }, finish_reason: null } };
    }
    yield { kind: "delta", delta: { index: 0, delta: {}, finish_reason: finish } };
    yield { kind: "usage", usage: { prompt_tokens: countMessageTokens(req.messages, family), completion_tokens: countTokens(text, family) } };
  }

  /** The answer cut to max_tokens whole words, as a real model stops at its limit. */
  private answer(req: ProviderRequest, variant: number, family: TokenizerFamily): { text: string; finish: FinishReason } {
    const full = simulatedAnswer(req.messages, variant);
    if (countTokens(full, family) <= req.max_tokens) return { text: full, finish: "stop" };
    let text = "";
    for (const word of full.match(/\S+\s*/g) ?? []) {
      if (countTokens(text + word, family) > req.max_tokens) break;
      text += word;
    }
    return { text: text.trimEnd(), finish: "length" };
  }

  private family(model: string): TokenizerFamily {
    return tokenizerFor(this.catalog.find(model)?.provider);
  }

  private checkAborted(req: ProviderRequest): void {
    if (req.signal.aborted) throw new ProviderError("aborted", `${this.name} call aborted by the caller`);
  }
}
