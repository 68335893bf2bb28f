import { readFile } from "node:fs/promises";

/**
 * Monotone map from embedding cosine to a 0-100 similarity score, fitted on STS gold scores (isotonic
 * regression, kept as knots; see models/quality-score/MODEL_CARD.md). Stored in
 * models/quality-score/calibration.json.
 */
export interface SimilarityCalibration {
  /** Ascending cosines. */
  cosine: number[];
  /** Score at each knot, 0-100, non-decreasing. */
  score: number[];
}

export async function loadCalibration(path: string): Promise<SimilarityCalibration> {
  const c = JSON.parse(await readFile(path, "utf8")) as SimilarityCalibration;
  const ok =
    Array.isArray(c.cosine) &&
    Array.isArray(c.score) &&
    c.cosine.length >= 2 &&
    c.cosine.length === c.score.length &&
    c.cosine.every((x, i) => i === 0 || x > c.cosine[i - 1]!) &&
    c.score.every((x, i) => x >= 0 && x <= 100 && (i === 0 || x >= c.score[i - 1]!));
  if (!ok) throw new Error(`${path}: calibration must be ascending cosine knots with non-decreasing 0-100 scores`);
  return c;
}

/** Piecewise-linear interpolation between knots, flat outside them. */
export function calibratedScore(cos: number, c: SimilarityCalibration): number {
  const xs = c.cosine;
  const ys = c.score;
  if (cos <= xs[0]!) return ys[0]!;
  if (cos >= xs[xs.length - 1]!) return ys[ys.length - 1]!;
  let hi = 1;
  while (xs[hi]! < cos) hi++;
  const t = (cos - xs[hi - 1]!) / (xs[hi]! - xs[hi - 1]!);
  return ys[hi - 1]! + t * (ys[hi]! - ys[hi - 1]!);
}
