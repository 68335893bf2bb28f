import type { CompressionRule } from "../types";
import { rewriteAll, type RewriteStep } from "../text/rewrite";

const WHITESPACE = /\s/;

const STEPS: readonly RewriteStep[] = [
  [/\r\n?/g, () => "\n", (t) => t.includes("\r")],
  [/[ \t]+$/gm, () => ""],
  [/(?<=\S)[ \t]{2,}(?=\S)/g, () => " ", (t) => t.includes("  ") || t.includes("\t")],
  [/\n{3,}/g, () => "\n\n", (t) => t.includes("\n\n\n")],
  [/^\s+(?=\S)|(?<=\S)\s+$/g, () => "", (t) => WHITESPACE.test(t.charAt(0)) || WHITESPACE.test(t.charAt(t.length - 1))],
];

/**
 * Whitespace that carries no meaning: trailing spaces, runs of spaces inside a line, more than one
 * blank line in a row, and the message's leading and trailing blank space. Indentation at a line
 * start is kept (nested lists, verse), and code is masked, so its whitespace is never touched.
 */
export const whitespace: CompressionRule = {
  name: "whitespace",
  minLevel: 0,
  apply(text, ctx) {
    return rewriteAll(text, STEPS, ctx);
  },
};
