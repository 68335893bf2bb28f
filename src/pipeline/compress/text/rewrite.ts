import type { RuleContext, RuleOutput } from "../types";
import { PhrasePattern } from "./phrase-patterns";

/**
 * Tokens saved by turning `before` fragments into `after` ones, counted once on each side joined by
 * line breaks: one tokenizer call per side instead of two per match, and the breaks cancel out.
 */
function savedTokens(before: readonly string[], after: readonly string[], ctx: RuleContext): number {
  if (before.length === 0) return 0;
  return Math.max(0, ctx.tokens(before.join("\n")) - ctx.tokens(after.join("\n")));
}

/**
 * Applies `pattern` with `replacement` and estimates the tokens saved on the changed fragments only,
 * so a rule never recounts the whole message. A PhrasePattern's matches come from the scan it shares
 * with the others.
 */
export function rewrite(
  text: string,
  pattern: RegExp | PhrasePattern,
  replacement: (match: string, ...groups: string[]) => string,
  ctx: RuleContext,
): RuleOutput {
  if (pattern instanceof PhrasePattern) {
    const found = pattern.matches(text).map((m) => ({ start: m.index, end: m.index + m[0].length, groups: m.slice(1).map((g) => g ?? "") }));
    return rewriteRanges(text, found, (match, { groups }) => replacement(match, ...groups), ctx);
  }
  const before: string[] = [];
  const after: string[] = [];
  const out = text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const groups = rest.slice(0, -2).map((g) => (typeof g === "string" ? g : ""));
    const replaced = replacement(match, ...groups);
    if (replaced !== match) {
      before.push(match);
      after.push(replaced);
    }
    return replaced;
  });
  return { text: out, saved: savedTokens(before, after, ctx) };
}

/** As rewrite, for matches the caller found: ascending, non-overlapping [start, end) ranges of `text`, each handed to `replacement` with its text. */
export function rewriteRanges<R extends { start: number; end: number }>(
  text: string,
  ranges: readonly R[],
  replacement: (match: string, range: R) => string,
  ctx: RuleContext,
): RuleOutput {
  const before: string[] = [];
  const after: string[] = [];
  let out = "";
  let at = 0;
  for (const range of ranges) {
    const { start, end } = range;
    const match = text.slice(start, end);
    const replaced = replacement(match, range);
    if (replaced === match) continue;
    out += text.slice(at, start) + replaced;
    at = end;
    before.push(match);
    after.push(replaced);
  }
  return { text: before.length === 0 ? text : out + text.slice(at), saved: savedTokens(before, after, ctx) };
}

/**
 * A pattern, what each match becomes and, optionally, a quick test that the pattern may match the
 * text: a `false` skips the step. The test costs a look at a few characters or one `includes`, where
 * a pattern with a lookbehind or a leading class tries every position of the message.
 */
export type RewriteStep = readonly [RegExp | PhrasePattern, (match: string, ...groups: string[]) => string, ((text: string) => boolean)?];

/** Runs several rewrites in order, adding up their savings. */
export function rewriteAll(text: string, steps: readonly RewriteStep[], ctx: RuleContext): RuleOutput {
  let saved = 0;
  for (const [pattern, replacement, mayMatch] of steps) {
    if (mayMatch && !mayMatch(text)) continue;
    const step = rewrite(text, pattern, replacement, ctx);
    text = step.text;
    saved += step.saved;
  }
  return { text, saved };
}

/** `text` without the given ascending [start, end) ranges, and the text they held. */
export function cutRanges(text: string, ranges: readonly { start: number; end: number }[]): { kept: string; removed: string } {
  if (ranges.length === 0) return { kept: text, removed: "" };
  let kept = "";
  let at = 0;
  let removed = "";
  for (const r of ranges) {
    kept += text.slice(at, r.start);
    removed += text.slice(r.start, r.end);
    at = r.end;
  }
  return { kept: kept + text.slice(at), removed };
}

/** Removes the given [start, end) ranges and estimates the tokens they held. */
export function removeRanges(text: string, ranges: readonly { start: number; end: number }[], ctx: RuleContext): RuleOutput {
  if (ranges.length === 0) return { text, saved: 0 };
  const { kept, removed } = cutRanges(text, ranges);
  return { text: kept, saved: ctx.tokens(removed) };
}

/** Upper-cases the first letter of `s` (a rewritten sentence start). */
export function capitalize(s: string): string {
  return s.length > 0 ? s[0]!.toUpperCase() + s.slice(1) : s;
}
