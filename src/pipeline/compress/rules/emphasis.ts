import type { CompressionRule } from "../types";
import { rewrite } from "../text/rewrite";

/**
 * Bold markers around prose; list markers and code are masked and never match. The markers must
 * stand apart from words and protected spans: "2**3 plus 2**1" is arithmetic. "__x__" is left
 * alone: in prompts it is more often a Python dunder than emphasis.
 */
const EMPHASIS = /(?<![\w\uE000-\uF0FF*])\*\*(?=\S)([^*\n]+?)(?<=\S)\*\*(?![\w\uE000-\uF0FF*])/g;

/** Markdown bold markers: the model reads the words the same without them. */
export const emphasis: CompressionRule = {
  name: "emphasis",
  minLevel: 0.5,
  apply(text, ctx) {
    return rewrite(text, EMPHASIS, (_m, inner) => inner!, ctx);
  },
};
