import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import type { ProviderName } from "../catalog/catalog";
import { PieceMemo } from "./piece-memo";
import { CL100K_SPLIT, O200K_SPLIT, classify, pieceEnd, type Splitter } from "./split";

/**
 * Token counting with real BPE vocabularies. OpenAI's gpt-4o family uses o200k_base. Anthropic and
 * Google publish no tokenizer for these models; cl100k_base is the closest public BPE and is what we
 * price them with when the provider reports no usage (the provider's own usage always wins).
 */
export type TokenizerFamily = "o200k" | "cl100k";

export function tokenizerFor(provider: ProviderName | undefined): TokenizerFamily {
  return provider === "openai" || provider === "openai_compatible" || provider === undefined ? "o200k" : "cl100k";
}

interface Family {
  split: Splitter;
  count: (piece: string) => number;
  /** Made on first use (1.5 MiB): a gateway that only prices OpenAI models never needs cl100k's. */
  memo?: PieceMemo;
}

const FAMILIES: Record<TokenizerFamily, Family> = {
  o200k: { split: O200K_SPLIT, count: countO200k },
  cl100k: { split: CL100K_SPLIT, count: countCl100k },
};

/**
 * Tokens of `text` as ordinary text: a user's prompt that quotes a special token such as
 * `<|endoftext|>` is counted as the characters it is, as providers bill it (the library alone refuses it).
 */
export function countTokens(text: string, family: TokenizerFamily = "o200k"): number {
  if (text.length === 0) return 0;
  const f = FAMILIES[family];
  const memo = (f.memo ??= new PieceMemo(f.count));
  // A piece never holds a whole special token (they mix letters and punctuation, and pieces do not), so
  // the library counts every piece as plain BPE.
  const classes = classify(text);
  let total = 0;
  for (let p = 0; p < text.length; ) {
    const q = pieceEnd(f.split, text, classes, p);
    total += memo.count(text, p, q);
    p = q;
  }
  return total;
}

/** Per-message framing overhead of chat formats (role markers and separators), as OpenAI documents it. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY_PRIMER = 3;

export function countMessageTokens(messages: readonly { role: string; content: string }[], family: TokenizerFamily = "o200k"): number {
  let n = TOKENS_PER_REPLY_PRIMER;
  for (const m of messages) n += TOKENS_PER_MESSAGE + countTokens(m.content, family);
  return n;
}
