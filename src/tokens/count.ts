import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import type { ProviderName } from "../catalog/catalog";

/**
 * Token counting with real BPE vocabularies. OpenAI's gpt-4o family uses o200k_base. Anthropic and
 * Google publish no tokenizer for these models; cl100k_base is the closest public BPE and is what we
 * price them with when the provider reports no usage (the provider's own usage always wins).
 */
export type TokenizerFamily = "o200k" | "cl100k";

export function tokenizerFor(provider: ProviderName | undefined): TokenizerFamily {
  return provider === "openai" || provider === "openai_compatible" || provider === undefined ? "o200k" : "cl100k";
}

export function countTokens(text: string, family: TokenizerFamily = "o200k"): number {
  if (text.length === 0) return 0;
  return family === "o200k" ? countO200k(text) : countCl100k(text);
}

/** Per-message framing overhead of chat formats (role markers and separators), as OpenAI documents it. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY_PRIMER = 3;

export function countMessageTokens(messages: readonly { role: string; content: string }[], family: TokenizerFamily = "o200k"): number {
  let n = TOKENS_PER_REPLY_PRIMER;
  for (const m of messages) n += TOKENS_PER_MESSAGE + countTokens(m.content, family);
  return n;
}
