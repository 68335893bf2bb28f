import type { ClassifierWeights } from "./train";

/**
 * Temperature scaling: the class logits divided by one T, fitted on rows the network did not train on,
 * so that a confidence of 0.8 is right about 8 times in 10. It changes no argmax, only how sure the
 * router believes the classifier is, which is what tier_confidence_threshold reads.
 */

/** Mean negative log-likelihood of the labels under softmax(log p / T). */
function nll(probs: readonly ArrayLike<number>[], labels: readonly number[], t: number): number {
  let loss = 0;
  for (let r = 0; r < probs.length; r++) {
    const p = probs[r]!;
    let max = -Infinity;
    for (let k = 0; k < p.length; k++) max = Math.max(max, Math.log(p[k]! + 1e-12) / t);
    let sum = 0;
    for (let k = 0; k < p.length; k++) sum += Math.exp(Math.log(p[k]! + 1e-12) / t - max);
    loss -= Math.log(p[labels[r]!]! + 1e-12) / t - max - Math.log(sum);
  }
  return loss / probs.length;
}

/** The T in [0.25, 8] that minimises the held-out negative log-likelihood (golden-section search on log T). */
export function fitTemperature(probs: readonly ArrayLike<number>[], labels: readonly number[]): number {
  let lo = Math.log(0.25);
  let hi = Math.log(8);
  const g = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 60; i++) {
    const a = hi - g * (hi - lo);
    const b = lo + g * (hi - lo);
    if (nll(probs, labels, Math.exp(a)) < nll(probs, labels, Math.exp(b))) hi = b;
    else lo = a;
  }
  return Math.exp((lo + hi) / 2);
}

/** Divides the class head by T in place: the exported graph's softmax then gives the calibrated probabilities. */
export function applyTemperature(m: ClassifierWeights, t: number): void {
  for (let i = 0; i < m.w2.length; i++) m.w2[i]! /= t;
  for (let i = 0; i < m.b2.length; i++) m.b2[i]! /= t;
}

export interface ReliabilityBin {
  /** Lower edge of the bin's confidence range, [from, from + 1 / bins). */
  from: number;
  count: number;
  meanConfidence: number;
  accuracy: number;
}

/** Reliability diagram over equal-width confidence bins, and its expected calibration error (count-weighted |accuracy - confidence|). */
export function reliability(confidence: readonly number[], correct: readonly boolean[], bins = 10): { bins: ReliabilityBin[]; ece: number } {
  const out: ReliabilityBin[] = Array.from({ length: bins }, (_, i) => ({ from: i / bins, count: 0, meanConfidence: 0, accuracy: 0 }));
  for (let i = 0; i < confidence.length; i++) {
    const b = out[Math.min(bins - 1, Math.floor(confidence[i]! * bins))]!;
    b.count++;
    b.meanConfidence += confidence[i]!;
    if (correct[i]) b.accuracy++;
  }
  let ece = 0;
  for (const b of out) {
    if (b.count === 0) continue;
    b.meanConfidence /= b.count;
    b.accuracy /= b.count;
    ece += (b.count / confidence.length) * Math.abs(b.accuracy - b.meanConfidence);
  }
  return { bins: out, ece };
}
