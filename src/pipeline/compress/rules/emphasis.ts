import type { CompressionRule } from "../types";
import { rewrite } from "../text/rewrite";

/** Bold and emphasis markers around prose; list markers and code are masked and never match. */
const EMPHASIS = /(\*\*|__)(?=\S)([^*_\n]+?)(?<=\S)\1/g;

/** Markdown bold markers: the model reads the words the same without them. */
export const emphasis: CompressionRule = {
  name: "emphasis",
  minLevel: 0.5,
  apply(text, ctx) {
    return rewrite(text, EMPHASIS, (_m, _marker, inner) => inner!, ctx);
  },
};
