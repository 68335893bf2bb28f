import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { Rng } from "../data/rng";

/**
 * Softmax regression for the task class and a sigmoid regression for difficulty, both on the same input
 * (embedding followed by the cheap text features), trained full-batch with Adam. Small data (a few
 * thousand prompts) and a linear model: training takes seconds and cannot memorize much.
 */
export interface ClassifierTrainConfig {
  seed: number;
  iterations: number;
  learningRate: number;
  l2: number;
  /** Class weight = (share of the average class / share of this class) ^ power: rare classes count more. */
  classWeightPower: number;
}

export interface Example {
  x: Float32Array;
  task: TaskClass;
  difficulty: number;
}

export interface LinearHeads {
  inputs: number;
  /** inputs x classes, row-major. */
  classWeights: Float32Array;
  classBias: Float32Array;
  /** inputs x 1. */
  difficultyWeights: Float32Array;
  difficultyBias: Float32Array;
}

const K = TASK_CLASSES.length;

export function predictProbs(heads: LinearHeads, x: Float32Array): Float64Array {
  const z = new Float64Array(K);
  for (let k = 0; k < K; k++) {
    let s = heads.classBias[k]!;
    for (let i = 0; i < heads.inputs; i++) s += x[i]! * heads.classWeights[i * K + k]!;
    z[k] = s;
  }
  const max = Math.max(...z);
  let sum = 0;
  for (let k = 0; k < K; k++) sum += z[k] = Math.exp(z[k]! - max);
  for (let k = 0; k < K; k++) z[k]! /= sum;
  return z;
}

export function predictDifficulty(heads: LinearHeads, x: Float32Array): number {
  let s = heads.difficultyBias[0]!;
  for (let i = 0; i < heads.inputs; i++) s += x[i]! * heads.difficultyWeights[i]!;
  return 1 / (1 + Math.exp(-s));
}

export function trainClassifier(config: ClassifierTrainConfig, data: readonly Example[], log: (line: string) => void): LinearHeads {
  const inputs = data[0]!.x.length;
  const rng = new Rng(config.seed);
  const P = inputs * K + K + inputs + 1;
  const params = new Float32Array(P);
  for (let i = 0; i < inputs * K; i++) params[i] = rng.normal() * 0.01;
  const heads: LinearHeads = {
    inputs,
    classWeights: params.subarray(0, inputs * K),
    classBias: params.subarray(inputs * K, inputs * K + K),
    difficultyWeights: params.subarray(inputs * K + K, inputs * K + K + inputs),
    difficultyBias: params.subarray(inputs * K + K + inputs),
  };
  const counts = new Map<TaskClass, number>();
  for (const e of data) counts.set(e.task, (counts.get(e.task) ?? 0) + 1);
  const weightOf = new Map<TaskClass, number>();
  for (const [task, n] of counts) weightOf.set(task, (data.length / counts.size / n) ** config.classWeightPower);
  let totalWeight = 0;
  for (const e of data) totalWeight += weightOf.get(e.task)!;

  const grad = new Float64Array(P);
  const m = new Float64Array(P);
  const v = new Float64Array(P);
  for (let t = 1; t <= config.iterations; t++) {
    grad.fill(0);
    let loss = 0;
    for (const e of data) {
      const w = weightOf.get(e.task)! / totalWeight;
      const probs = predictProbs(heads, e.x);
      const y = TASK_CLASSES.indexOf(e.task);
      loss -= w * Math.log(probs[y]! + 1e-12);
      const d = predictDifficulty(heads, e.x);
      // Squared error through the sigmoid; difficulty is weighted like the class loss.
      const gd = w * 2 * (d - e.difficulty) * d * (1 - d);
      for (let i = 0; i < inputs; i++) {
        const xi = e.x[i]!;
        if (xi === 0) continue;
        for (let k = 0; k < K; k++) grad[i * K + k]! += w * (probs[k]! - (k === y ? 1 : 0)) * xi;
        grad[inputs * K + K + i]! += gd * xi;
      }
      for (let k = 0; k < K; k++) grad[inputs * K + k]! += w * (probs[k]! - (k === y ? 1 : 0));
      grad[P - 1]! += gd;
    }
    const lr = (config.learningRate * Math.sqrt(1 - 0.999 ** t)) / (1 - 0.9 ** t);
    for (let p = 0; p < P; p++) {
      const g = grad[p]! + config.l2 * params[p]!;
      m[p] = 0.9 * m[p]! + 0.1 * g;
      v[p] = 0.999 * v[p]! + 0.001 * g * g;
      params[p]! -= (lr * m[p]!) / (Math.sqrt(v[p]!) + 1e-8);
    }
    if (t % 50 === 0 || t === config.iterations) log(`classifier iteration ${t}: weighted loss ${loss.toFixed(4)}`);
  }
  return heads;
}
