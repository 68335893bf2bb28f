import type { CompressionRule } from "../types";
import { rewrite } from "../text/rewrite";

/**
 * Bare JSON in prose, seen through the mask: strings and numbers are placeholders, so a stretch made
 * only of brackets, colons, commas, placeholders, true/false/null and whitespace is JSON-shaped, and
 * its whitespace can go without touching a value. Fenced JSON is a code block and stays as written.
 */
const JSON_SHAPED = /[{[](?:[\s{}[\]:,]|\uE000[\uE100-\uF0FF]+\uE001|true|false|null)*[}\]]/g;

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
  apply(text, ctx) {
    if (!text.includes("{") && !text.includes("[")) return { text, saved: 0 };
    return rewrite(text, JSON_SHAPED, (m) => (/[:,]/.test(m) && /\s/.test(m) && balanced(m) ? m.replace(/[ \t]+/g, "").replace(/\n{2,}/g, "\n") : m), ctx);
  },
};
