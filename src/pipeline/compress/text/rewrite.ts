import type { RuleContext, RuleOutput } from "../types";

/**
 * Applies `pattern` with `replacement` and estimates the tokens saved on the matched fragments only,
 * so a rule never recounts the whole message.
 */
export function rewrite(text: string, pattern: RegExp, replacement: (match: string, ...groups: string[]) => string, ctx: RuleContext): RuleOutput {
  let saved = 0;
  const out = text.replace(pattern, (match: string, ...rest: unknown[]) => {
    const groups = rest.slice(0, -2).map((g) => (typeof g === "string" ? g : ""));
    const replaced = replacement(match, ...groups);
    if (replaced !== match) saved += ctx.tokens(match) - ctx.tokens(replaced);
    return replaced;
  });
  return { text: out, saved };
}

/** A pattern and what each match becomes. */
export type RewriteStep = readonly [RegExp, (match: string, ...groups: string[]) => string];

/** Runs several rewrites in order, adding up their savings. */
export function rewriteAll(text: string, steps: readonly RewriteStep[], ctx: RuleContext): RuleOutput {
  let saved = 0;
  for (const [pattern, replacement] of steps) {
    const step = rewrite(text, pattern, replacement, ctx);
    text = step.text;
    saved += step.saved;
  }
  return { text, saved };
}

/** Removes the given [start, end) ranges and estimates the tokens they held. */
export function removeRanges(text: string, ranges: readonly { start: number; end: number }[], ctx: RuleContext): RuleOutput {
  if (ranges.length === 0) return { text, saved: 0 };
  let out = "";
  let at = 0;
  let removed = "";
  for (const r of ranges) {
    out += text.slice(at, r.start);
    removed += text.slice(r.start, r.end);
    at = r.end;
  }
  return { text: out + text.slice(at), saved: ctx.tokens(removed) };
}

/** Upper-cases the first letter of `s` (a rewritten sentence start). */
export function capitalize(s: string): string {
  return s.length > 0 ? s[0]!.toUpperCase() + s.slice(1) : s;
}
