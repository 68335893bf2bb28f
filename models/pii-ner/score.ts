import type { Detection } from "../../src/pipeline/pii/types";
import { PRESIDIO_TYPE, type PresidioSample } from "./data";

export interface TypeCounts {
  tp: number;
  fp: number;
  fn: number;
}

/**
 * Word-level counts per type (runs of letters and digits), as Presidio's own evaluator scores: a word
 * counts for type T when it lies in a gold span of T, and as found when it lies in a detected span of
 * T. Gold types we do not mask (LOCATION, ORGANIZATION, DATE_TIME, ...) are words no detector should
 * claim: claiming one is a false positive of the claiming type. Shared by bench/pii-eval.ts and the
 * quality test (test/pii/quality.test.ts).
 */
export function scoreWords(samples: readonly PresidioSample[], types: readonly string[], detect: (text: string) => Detection[]): Record<string, TypeCounts> {
  const c: Record<string, TypeCounts> = Object.fromEntries(types.map((t) => [t, { tp: 0, fp: 0, fn: 0 }]));
  for (const s of samples) {
    const found = detect(s.full_text);
    for (const m of s.full_text.matchAll(/[\p{L}\p{N}]+/gu)) {
      const a = m.index!;
      const b = a + m[0].length;
      const goldSpan = s.spans.find((x) => a < x.end_position && b > x.start_position);
      const gold = goldSpan ? PRESIDIO_TYPE[goldSpan.entity_type] : undefined;
      const got = found.find((d) => a < d.end && b > d.start)?.type;
      if (gold !== undefined && got === gold) c[gold]!.tp++;
      else {
        if (got !== undefined && c[got]) c[got]!.fp++;
        if (gold !== undefined && c[gold]) c[gold]!.fn++;
      }
    }
  }
  return c;
}

export const precision = (c: TypeCounts) => c.tp / (c.tp + c.fp);
export const recall = (c: TypeCounts) => c.tp / (c.tp + c.fn);
