import { readFile } from "node:fs/promises";
import { FEATURE_NAMES, type RequestFeatures } from "./request-features";

/**
 * Logistic calibration of the request features (request-features.ts) to the probability that a
 * compression asks for the same thing as its original, fitted on labelled pairs of safe and
 * meaning-changing edits (models/quality-score/build.ts, MODEL_CARD.md). Weights are never positive: a
 * loss never raises the score. Stored in models/quality-score/calibration.json.
 */
export interface RequestCalibration {
  features: readonly string[];
  weights: number[];
  bias: number;
}

export async function loadCalibration(path: string): Promise<RequestCalibration> {
  const c = JSON.parse(await readFile(path, "utf8")) as RequestCalibration;
  const ok =
    Array.isArray(c.features) &&
    c.features.length === FEATURE_NAMES.length &&
    c.features.every((f, i) => f === FEATURE_NAMES[i]) &&
    Array.isArray(c.weights) &&
    c.weights.length === FEATURE_NAMES.length &&
    c.weights.every((w) => Number.isFinite(w) && w <= 0) &&
    Number.isFinite(c.bias);
  if (!ok) throw new Error(`${path}: calibration must give a non-positive weight to each of ${FEATURE_NAMES.join(", ")} and a bias`);
  return c;
}

/** 0-100: a hundred times the calibrated probability that the request is unchanged. */
export function calibratedScore(features: RequestFeatures, c: RequestCalibration): number {
  let z = c.bias;
  for (let i = 0; i < FEATURE_NAMES.length; i++) z += c.weights[i]! * features[FEATURE_NAMES[i]!];
  return 100 / (1 + Math.exp(-z));
}
