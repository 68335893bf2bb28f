import type { CompressionRule } from "../types";
import { rewriteAll } from "../text/rewrite";

/**
 * Whitespace that carries no meaning: trailing spaces, runs of spaces inside a line, more than one
 * blank line in a row, and the message's leading and trailing blank space. Indentation at a line
 * start is kept (nested lists, verse), and code is masked, so its whitespace is never touched.
 */
export const whitespace: CompressionRule = {
  name: "whitespace",
  minLevel: 0,
  apply(text, ctx) {
    return rewriteAll(
      text,
      [
        [/\r\n?/g, () => "\n"],
        [/[ \t]+$/gm, () => ""],
        [/(?<=\S)[ \t]{2,}(?=\S)/g, () => " "],
        [/\n{3,}/g, () => "\n\n"],
        [/^\s+(?=\S)|(?<=\S)\s+$/g, () => ""],
      ],
      ctx,
    );
  },
};
