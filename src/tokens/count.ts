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
  return provider === "openai" || provider === "openai_compatible" || provider === "svc" || provider === undefined ? "o200k" : "cl100k";
}

type Vocabulary = typeof import("gpt-tokenizer/encoding/o200k_base");

interface Family {
  split: Splitter;
  /**
   * The library's module for this vocabulary, loaded with the memo (1.5 MiB) by loadVocabularies or on
   * first use: each costs 40-70 MiB of RSS in every thread that loads it, and a thread needs only the
   * ones it counts with (workers o200k alone, the event loop those of the catalog's providers).
   */
  load: () => Vocabulary;
  memo?: PieceMemo;
}

const FAMILIES: Record<TokenizerFamily, Family> = {
  o200k: { split: O200K_SPLIT, load: () => require("gpt-tokenizer/encoding/o200k_base") as Vocabulary },
  cl100k: { split: CL100K_SPLIT, load: () => require("gpt-tokenizer/encoding/cl100k_base") as Vocabulary },
};

function memoOf(f: Family): PieceMemo {
  return (f.memo ??= new PieceMemo(f.load().countTokens));
}

/**
 * Loads vocabularies at start-up: loading one takes about half a second, which on the first request
 * that needs it would stall every request in flight on that thread.
 */
export function loadVocabularies(families: Iterable<TokenizerFamily>): void {
  for (const family of families) memoOf(FAMILIES[family]);
}

/** The vocabularies that pricing the given providers' models can need. */
export function vocabulariesFor(providers: Iterable<ProviderName>): Set<TokenizerFamily> {
  return new Set([...providers].map(tokenizerFor));
}

/**
 * Tokens of `text` as ordinary text: a user's prompt that quotes a special token such as
 * `<|endoftext|>` is counted as the characters it is, as providers bill it (the library alone refuses it).
 */
export function countTokens(text: string, family: TokenizerFamily = "o200k"): number {
  if (text.length === 0) return 0;
  const f = FAMILIES[family];
  const memo = memoOf(f);
  // A piece never holds a whole special token (they mix letters and punctuation, and pieces do not), so
  // the library counts every piece as plain BPE.
  const classes = classify(text);
  let total = 0;
  for (let p = 0; p < text.length; ) {
    const q = pieceEnd(f.split, text, classes, p);
    total += q - p <= MAX_BPE_CHARS ? memo.count(text, p, q) : countInChunks(memo, text, p, q);
    p = q;
  }
  return total;
}

/**
 * Longest stretch of one pre-tokenizer piece counted in one library call. The library's merges take
 * far more than linear time on a long piece (a 128 kB run of "ab", one piece, took 45 s; a run of
 * spaces or dashes 3 s at 64k), and a prompt is free to hold one: a DNA sequence, a rule line, a
 * crafted body. Up to this length a piece costs under a millisecond and is counted exactly (the longest
 * in the corpora is 747 characters, a rule of dashes); a longer one is counted in chunks of this size,
 * a few tokens off at each chunk boundary, where a merge across it is missed.
 */
export const MAX_BPE_CHARS = 2048;

function countInChunks(memo: PieceMemo, text: string, start: number, end: number): number {
  let total = 0;
  for (let p = start; p < end; ) {
    let q = Math.min(end, p + MAX_BPE_CHARS);
    // Never between the two halves of a surrogate pair.
    const unit = text.charCodeAt(q);
    if (q < end && unit >= 0xdc00 && unit <= 0xdfff) q--;
    total += memo.count(text, p, q);
    p = q;
  }
  return total;
}

/** Per-message framing overhead of chat formats (role markers and separators), as OpenAI documents it. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY_PRIMER = 3;

export function countMessageTokens(
  messages: readonly { role: string; content: string; parts?: readonly { type: string; image_url?: { detail?: string } }[] }[],
  family: TokenizerFamily = "o200k",
): number {
  let n = TOKENS_PER_REPLY_PRIMER;
  for (const m of messages) {
    n += TOKENS_PER_MESSAGE + countTokens(m.content, family);
    // An image's tokens as OpenAI bills one of unknown size: 85 at detail "low", else 765 (85 + 4 tiles of 170).
    if (m.parts) for (const p of m.parts) if (p.type === "image_url") n += p.image_url?.detail === "low" ? 85 : 765;
  }
  return n;
}
