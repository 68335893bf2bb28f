import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { calibratedScore, type RequestCalibration } from "../../src/pipeline/score/calibration";
import { FEATURE_NAMES, requestFeatures, type RequestFeatures } from "../../src/pipeline/score/request-features";
import { labelledPairs, type LabelledPair } from "./pairs";

const FLOOR = 85;
const EPOCHS = 3000;
const STEP = 0.5;
const L2 = 1e-3;

const vector = (f: RequestFeatures) => FEATURE_NAMES.map((k) => f[k]);

/**
 * Logistic regression by full-batch gradient descent, weights kept non-positive (projected): a loss
 * never raises the score. Safe pairs are weighted up to balance the classes.
 */
function fit(xs: number[][], ys: number[]): RequestCalibration {
  const w = FEATURE_NAMES.map(() => 0);
  let b = 0;
  const positives = ys.filter((y) => y === 1).length;
  const weightOf = (y: number) => (y === 1 ? ys.length / (2 * positives) : ys.length / (2 * (ys.length - positives)));
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const gw = w.map(() => 0);
    let gb = 0;
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i]!;
      let z = b;
      for (let j = 0; j < w.length; j++) z += w[j]! * x[j]!;
      const err = (1 / (1 + Math.exp(-z)) - ys[i]!) * weightOf(ys[i]!);
      for (let j = 0; j < w.length; j++) gw[j]! += err * x[j]!;
      gb += err;
    }
    for (let j = 0; j < w.length; j++) w[j] = Math.min(0, w[j]! - STEP * (gw[j]! / xs.length + L2 * w[j]!));
    b -= STEP * (gb / xs.length);
  }
  return { features: [...FEATURE_NAMES], weights: w.map((x) => Number(x.toFixed(4))), bias: Number(b.toFixed(4)) };
}

/** Area under the ROC curve of `scores` for telling safe (1) from changed (0), ties counted half. */
export function auc(scores: number[], ys: number[]): number {
  let wins = 0;
  let total = 0;
  for (let i = 0; i < scores.length; i++) {
    if (ys[i] !== 1) continue;
    for (let j = 0; j < scores.length; j++) {
      if (ys[j] !== 0) continue;
      total++;
      wins += scores[i]! > scores[j]! ? 1 : scores[i] === scores[j] ? 0.5 : 0;
    }
  }
  return wins / total;
}

export interface PairMetrics {
  pairs: number;
  safe: number;
  auc: number;
  accuracyAtFloor: number;
  /** Meaning-changing pairs scored at or above the floor: compressions that would be sent. */
  changedPassed: number;
  /** Safe pairs scored under the floor: savings the back-off would undo. */
  safeFailed: number;
  byKind: Record<string, { pairs: number; atOrAboveFloor: number }>;
}

export function evaluate(pairs: readonly LabelledPair[], score: (p: LabelledPair) => number): PairMetrics {
  const scores = pairs.map(score);
  const ys = pairs.map((p) => (p.safe ? 1 : 0));
  const byKind: PairMetrics["byKind"] = {};
  let correct = 0;
  pairs.forEach((p, i) => {
    const pass = scores[i]! >= FLOOR;
    if (pass === p.safe) correct++;
    const k = (byKind[`${p.safe ? "safe" : "changed"}: ${p.kind}`] ??= { pairs: 0, atOrAboveFloor: 0 });
    k.pairs++;
    if (pass) k.atOrAboveFloor++;
  });
  return {
    pairs: pairs.length,
    safe: ys.filter((y) => y === 1).length,
    auc: Number(auc(scores, ys).toFixed(4)),
    accuracyAtFloor: Number((correct / pairs.length).toFixed(4)),
    changedPassed: pairs.filter((p, i) => !p.safe && scores[i]! >= FLOOR).length,
    safeFailed: pairs.filter((p, i) => p.safe && scores[i]! < FLOOR).length,
    byKind,
  };
}

/** Fits the calibration on the train pairs, writes it, and reports the test pairs it never saw. */
export async function buildQualityCalibration(outDir: string, log: (line: string) => void): Promise<RequestCalibration> {
  const pairs = labelledPairs();
  const train = pairs.filter((p) => p.split === "train");
  const test = pairs.filter((p) => p.split === "test");
  const featuresOf = (p: LabelledPair) => requestFeatures(p.original, p.compressed);
  const calibration = fit(
    train.map((p) => vector(featuresOf(p))),
    train.map((p) => (p.safe ? 1 : 0)),
  );
  const score = (p: LabelledPair) => Math.round(calibratedScore(featuresOf(p), calibration));
  const metrics = { floor: FLOOR, train: evaluate(train, score), test: evaluate(test, score) };
  log(
    `quality calibration: ${train.length} train pairs, ${test.length} test pairs; test AUC ${metrics.test.auc}, accuracy at ${FLOOR} ${metrics.test.accuracyAtFloor}`,
  );
  writeFileSync(join(outDir, "calibration.json"), `${JSON.stringify(calibration, null, 2)}\n`);
  writeFileSync(join(outDir, "pairs-metrics.json"), `${JSON.stringify(metrics, null, 2)}\n`);
  return calibration;
}

if (import.meta.main) await buildQualityCalibration(import.meta.dir, (line) => console.log(line));
