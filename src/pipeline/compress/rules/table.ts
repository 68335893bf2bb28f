import type { CompressionRule } from "../types";
import { rewrite } from "../text/rewrite";

const TABLE_ROW = /^[ \t]*\|.*\|[ \t]*$/gm;
const DELIMITER_ROW = /^\|(?:[ \t]*:?-+:?[ \t]*\|)+$/;

/** Markdown tables without their padding: "| a   | b |" → "|a|b|", "|:----|" → "|:-|". */
export const table: CompressionRule = {
  name: "table",
  minLevel: 0.25,
  apply(text, ctx) {
    if (!text.includes("|")) return { text, saved: 0 };
    return rewrite(
      text,
      TABLE_ROW,
      (row) => {
        const tight = row.trim().replace(/[ \t]*\|[ \t]*/g, "|");
        return DELIMITER_ROW.test(tight) ? tight.replace(/-+/g, "-") : tight;
      },
      ctx,
    );
  },
};
