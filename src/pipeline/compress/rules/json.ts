import type { CompressionRule } from "../types";
import { rewriteRanges } from "../text/rewrite";
import { PLACEHOLDER_SOURCE } from "../protect/mask";

/**
 * Bare JSON in prose, seen through the mask: strings and numbers are placeholders, so a stretch made
 * only of brackets, colons, commas, placeholders, true/false/null and whitespace is JSON-shaped, and
 * its whitespace can go without touching a value. Fenced JSON is a code block and stays as written.
 * JSON_TOKENS is that stretch after an opening bracket; each token is told by its first character.
 */
const OPENING = /[{[]/g;
const JSON_TOKENS = new RegExp(String.raw`(?:[\s{}[\]:,]|${PLACEHOLDER_SOURCE}|true|false|null)*`, "y");
const isClosing = (c: string) => c === "}" || c === "]";

/**
 * The matches, left to right, of an opening bracket, JSON_TOKENS and a closing bracket, found without
 * a regex's backtracking: that gave up the tokens one by one looking for a closing bracket, at every
 * opening bracket of the run again, so a long run with none (a line of 10k "[") took seconds. From an
 * opening bracket the tokens run as far as they go, and the match ends at the last closing bracket
 * among them (a token of its own); a bracket further in the run cannot start a match of its own.
 */
function jsonShaped(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  OPENING.lastIndex = 0;
  for (let m = OPENING.exec(text); m !== null; m = OPENING.exec(text)) {
    JSON_TOKENS.lastIndex = m.index + 1;
    JSON_TOKENS.test(text);
    const runEnd = JSON_TOKENS.lastIndex;
    let close = runEnd - 1;
    while (close > m.index && !isClosing(text[close]!)) close--;
    if (close > m.index) found.push({ start: m.index, end: close + 1 });
    OPENING.lastIndex = runEnd;
  }
  return found;
}

function balanced(s: string): boolean {
  const stack: string[] = [];
  for (const c of s) {
    if (c === "{" || c === "[") stack.push(c);
    else if (c === "}" || c === "]") {
      if (stack.pop() !== (c === "}" ? "{" : "[")) return false;
    }
  }
  return stack.length === 0;
}

/**
 * Drops the spaces and indentation between the tokens of JSON objects and arrays written in the
 * prompt. Line breaks stay (one per line): rules never join lines, and a reader that pairs quotes line
 * by line must still find the same strings.
 */
export const json: CompressionRule = {
  name: "json",
  minLevel: 0.25,
  mayChange: (original) => original.includes("{") || original.includes("["),
  apply(text, ctx) {
    if (!text.includes("{") && !text.includes("[")) return { text, saved: 0 };
    return rewriteRanges(
      text,
      jsonShaped(text),
      (m) => (/[:,]/.test(m) && /\s/.test(m) && balanced(m) ? m.replace(/[ \t]+/g, "").replace(/\n{2,}/g, "\n") : m),
      ctx,
    );
  },
};
