import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { Rng } from "../data/rng";

/**
 * A one-hidden-layer network on (embedding ++ text features): ReLU hidden layer, softmax head for the task
 * class and sigmoid head for difficulty, trained together with minibatch Adam. The hidden layer lets
 * surface features and the embedding interact (a code fence means code in prose-like prompts too), which
 * a linear model could not express.
 */
export interface ClassifierTrainConfig {
  seed: number;
  hidden: number;
  epochs: number;
  batchSize: number;
  learningRate: number;
  l2: number;
  /** Class weight = (share of the average class / share of this class) ^ power: rare classes count more. */
  classWeightPower: number;
  /**
   * Extra weight on top of that for the classes routing must not under-serve: a code or math prompt sent
   * to the cheapest tier costs the user more than a chat prompt sent to the balanced one.
   */
  classBoost: Partial<Record<TaskClass, number>>;
}

export interface Example {
  x: Float32Array;
  task: TaskClass;
  difficulty: number;
}

/** Weights row-major as [inputs, outputs], the layout ONNX Gemm takes without transposition. */
export interface ClassifierWeights {
  inputs: number;
  hidden: number;
  w1: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  wd: Float32Array;
  bd: Float32Array;
}

const K = TASK_CLASSES.length;

function allocate(inputs: number, hidden: number): { flat: Float32Array; weights: ClassifierWeights } {
  const sizes = [inputs * hidden, hidden, hidden * K, K, hidden, 1];
  const flat = new Float32Array(sizes.reduce((a, b) => a + b, 0));
  const views: Float32Array[] = [];
  let offset = 0;
  for (const n of sizes) {
    views.push(flat.subarray(offset, offset + n));
    offset += n;
  }
  const [w1, b1, w2, b2, wd, bd] = views as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  return { flat, weights: { inputs, hidden, w1, b1, w2, b2, wd, bd } };
}

interface Forward {
  h: Float64Array;
  probs: Float64Array;
  difficulty: number;
}

function forward(m: ClassifierWeights, x: Float32Array): Forward {
  const h = new Float64Array(m.hidden);
  for (let j = 0; j < m.hidden; j++) h[j] = m.b1[j]!;
  for (let i = 0; i < m.inputs; i++) {
    const xi = x[i]!;
    if (xi === 0) continue;
    const row = i * m.hidden;
    for (let j = 0; j < m.hidden; j++) h[j]! += xi * m.w1[row + j]!;
  }
  for (let j = 0; j < m.hidden; j++) if (h[j]! < 0) h[j] = 0;
  const probs = new Float64Array(K);
  let d = m.bd[0]!;
  for (let k = 0; k < K; k++) probs[k] = m.b2[k]!;
  for (let j = 0; j < m.hidden; j++) {
    if (h[j] === 0) continue;
    for (let k = 0; k < K; k++) probs[k]! += h[j]! * m.w2[j * K + k]!;
    d += h[j]! * m.wd[j]!;
  }
  const max = Math.max(...probs);
  let sum = 0;
  for (let k = 0; k < K; k++) sum += probs[k] = Math.exp(probs[k]! - max);
  for (let k = 0; k < K; k++) probs[k]! /= sum;
  return { h, probs, difficulty: 1 / (1 + Math.exp(-d)) };
}

/** Class probabilities (TASK_CLASSES order) and difficulty of one example, as the exported graph computes them. */
export function predict(m: ClassifierWeights, x: Float32Array): { probs: Float64Array; difficulty: number } {
  const { probs, difficulty } = forward(m, x);
  return { probs, difficulty };
}

export function trainClassifier(config: ClassifierTrainConfig, data: readonly Example[], log: (line: string) => void): ClassifierWeights {
  const inputs = data[0]!.x.length;
  const H = config.hidden;
  const rng = new Rng(config.seed);
  const { flat: params, weights: m } = allocate(inputs, H);
  const { flat: grad, weights: g } = allocate(inputs, H);
  // He initialization for the ReLU layer, small for the heads.
  for (let i = 0; i < m.w1.length; i++) m.w1[i] = rng.normal() * Math.sqrt(2 / inputs);
  for (let i = 0; i < m.w2.length; i++) m.w2[i] = rng.normal() * 0.01;
  for (let i = 0; i < m.wd.length; i++) m.wd[i] = rng.normal() * 0.01;

  const counts = new Map<TaskClass, number>();
  for (const e of data) counts.set(e.task, (counts.get(e.task) ?? 0) + 1);
  const classWeight = new Map<TaskClass, number>();
  for (const [task, n] of counts) classWeight.set(task, (data.length / counts.size / n) ** config.classWeightPower * (config.classBoost[task] ?? 1));

  const mom = new Float64Array(params.length);
  const vel = new Float64Array(params.length);
  const dh = new Float64Array(H);
  let step = 0;
  for (let epoch = 1; epoch <= config.epochs; epoch++) {
    const order = rng.shuffle(data.map((_, i) => i));
    let loss = 0;
    for (let start = 0; start < order.length; start += config.batchSize) {
      const batch = order.slice(start, start + config.batchSize);
      grad.fill(0);
      for (const idx of batch) {
        const e = data[idx]!;
        const w = classWeight.get(e.task)! / batch.length;
        const f = forward(m, e.x);
        const y = TASK_CLASSES.indexOf(e.task);
        loss -= classWeight.get(e.task)! * Math.log(f.probs[y]! + 1e-12);
        const gd = w * 2 * (f.difficulty - e.difficulty) * f.difficulty * (1 - f.difficulty);
        dh.fill(0);
        for (let k = 0; k < K; k++) {
          const gk = w * (f.probs[k]! - (k === y ? 1 : 0));
          g.b2[k]! += gk;
          for (let j = 0; j < H; j++) {
            g.w2[j * K + k]! += gk * f.h[j]!;
            dh[j]! += gk * m.w2[j * K + k]!;
          }
        }
        g.bd[0]! += gd;
        for (let j = 0; j < H; j++) {
          g.wd[j]! += gd * f.h[j]!;
          dh[j]! += gd * m.wd[j]!;
          if (f.h[j] === 0) dh[j] = 0;
          g.b1[j]! += dh[j]!;
        }
        for (let i = 0; i < inputs; i++) {
          const xi = e.x[i]!;
          if (xi === 0) continue;
          const row = i * H;
          for (let j = 0; j < H; j++) g.w1[row + j]! += xi * dh[j]!;
        }
      }
      step++;
      const lr = (config.learningRate * Math.sqrt(1 - 0.999 ** step)) / (1 - 0.9 ** step);
      for (let p = 0; p < params.length; p++) {
        const gp = grad[p]! + config.l2 * params[p]!;
        mom[p] = 0.9 * mom[p]! + 0.1 * gp;
        vel[p] = 0.999 * vel[p]! + 0.001 * gp * gp;
        params[p]! -= (lr * mom[p]!) / (Math.sqrt(vel[p]!) + 1e-8);
      }
    }
    if (epoch % 5 === 0 || epoch === config.epochs) log(`classifier epoch ${epoch}: weighted loss ${(loss / data.length).toFixed(4)}`);
  }
  return m;
}
