import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";
import { countTokens as countCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import type { ProviderName } from "../catalog/catalog";
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

/**
 * Pieces remembered per family. BPE never merges across the pre-tokenizer's pieces, so a text's count is
 * the sum of its pieces' counts; words repeat (Zipf), and a small map of the pieces seen recently is
 * found faster than the vocabulary's 200k-entry one (measured: 2.5x faster on 350-token English
 * prompts). Cleared when full rather than kept in LRU order: refilling costs one library call per piece.
 */
const PIECE_MEMO_LIMIT = 50_000;
/** A piece longer than this (a base64 blob, a run of spaces) is counted but not remembered. */
const PIECE_MEMO_MAX_LENGTH = 64;

interface Family {
  split: Splitter;
  count: (piece: string) => number;
  memo: Map<string, number>;
}

const FAMILIES: Record<TokenizerFamily, Family> = {
  o200k: { split: O200K_SPLIT, count: countO200k, memo: new Map() },
  cl100k: { split: CL100K_SPLIT, count: countCl100k, memo: new Map() },
};

/**
 * Tokens of `text` as ordinary text: a user's prompt that quotes a special token such as
 * `<|endoftext|>` is counted as the characters it is, as providers bill it (the library alone refuses it).
 */
export function countTokens(text: string, family: TokenizerFamily = "o200k"): number {
  if (text.length === 0) return 0;
  const f = FAMILIES[family];
  // A piece never holds a whole special token (they mix letters and punctuation, and pieces do not), so
  // the library counts every piece as plain BPE.
  const classes = classify(text);
  let total = 0;
  for (let p = 0; p < text.length; ) {
    const q = pieceEnd(f.split, text, classes, p);
    const piece = text.slice(p, q);
    p = q;
    let n = f.memo.get(piece);
    if (n === undefined) {
      n = f.count(piece);
      if (piece.length <= PIECE_MEMO_MAX_LENGTH) {
        if (f.memo.size >= PIECE_MEMO_LIMIT) f.memo.clear();
        f.memo.set(piece, n);
      }
    }
    total += n;
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
