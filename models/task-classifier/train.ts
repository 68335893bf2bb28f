import type { FeatureBag } from "../../src/ml/features";
import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { Rng } from "../data/rng";

/**
 * A one-hidden-layer network on (embedding ++ text features) plus a bag of hashed words: ReLU hidden
 * layer, softmax head for the task class and sigmoid head for difficulty, trained together with
 * minibatch Adam. The hidden layer lets surface features and the embedding interact (a code fence means
 * code in prose-like prompts too), which a linear model could not express; the word bag adds one learned
 * row per word bucket to the hidden layer's input (an EmbeddingBag), so vocabulary the embedding blurs
 * still counts.
 */
export interface ClassifierTrainConfig {
  seed: number;
  hidden: number;
  /** Hash buckets of the word bag (rows of its table); a power of two. */
  wordBuckets: number;
  /**
   * Share of an example's words hidden in each training step (inverted dropout). Without it the word table
   * learns the corpora's incidental words (a "my" or a "for" that happens to mark one data set) and
   * overrides the embedding and surface features on short prompts.
   */
  wordDropout: number;
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
  /**
   * Weight of each of the project's own prompts (models/task-classifier/data) against a corpus row's 1.
   * They say what a class means whatever the wording; the corpora, far more numerous, each say it in one
   * corpus's style (GSM8K's numbers, MBPP's "Write a function").
   */
  authoredWeight: number;
}

export interface Example {
  x: Float32Array;
  bag: FeatureBag;
  task: TaskClass;
  difficulty: number;
  /** Weight of the example in the loss, before its class weight. */
  weight: number;
}

/** Weights row-major as [inputs, outputs], the layout ONNX Gemm takes without transposition. */
export interface ClassifierWeights {
  inputs: number;
  hidden: number;
  wordBuckets: number;
  w1: Float32Array;
  /** Word bag table, [wordBuckets, hidden]. */
  wt: Float32Array;
  b1: Float32Array;
  w2: Float32Array;
  b2: Float32Array;
  wd: Float32Array;
  bd: Float32Array;
}

const K = TASK_CLASSES.length;

function allocate(inputs: number, hidden: number, wordBuckets: number): { flat: Float32Array; weights: ClassifierWeights } {
  const sizes = [inputs * hidden, hidden, hidden * K, K, hidden, 1, wordBuckets * hidden];
  const flat = new Float32Array(sizes.reduce((a, b) => a + b, 0));
  const views: Float32Array[] = [];
  let offset = 0;
  for (const n of sizes) {
    views.push(flat.subarray(offset, offset + n));
    offset += n;
  }
  const [w1, b1, w2, b2, wd, bd, wt] = views as [Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array, Float32Array];
  return { flat, weights: { inputs, hidden, wordBuckets, w1, b1, w2, b2, wd, bd, wt } };
}

interface Forward {
  h: Float64Array;
  probs: Float64Array;
  difficulty: number;
}

function forward(m: ClassifierWeights, x: Float32Array, bag: FeatureBag): Forward {
  const h = new Float64Array(m.hidden);
  for (let j = 0; j < m.hidden; j++) h[j] = m.b1[j]!;
  for (let b = 0; b < bag.length; b++) {
    const w = bag.weights[b]!;
    const row = bag.ids[b]! * m.hidden;
    for (let j = 0; j < m.hidden; j++) h[j]! += w * m.wt[row + j]!;
  }
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
export function predict(m: ClassifierWeights, x: Float32Array, bag: FeatureBag): { probs: Float64Array; difficulty: number } {
  const { probs, difficulty } = forward(m, x, bag);
  return { probs, difficulty };
}

/** `bag` with each word kept with probability 1 - `rate` and the kept weights scaled by 1 / (1 - rate). */
function dropWords(bag: FeatureBag, rate: number, rng: Rng): FeatureBag {
  if (rate === 0) return bag;
  const ids = new Int32Array(bag.length);
  const weights = new Float32Array(bag.length);
  let n = 0;
  for (let i = 0; i < bag.length; i++) {
    if (rng.next() < rate) continue;
    ids[n] = bag.ids[i]!;
    weights[n++] = bag.weights[i]! / (1 - rate);
  }
  return { ids, weights, length: n };
}

export function trainClassifier(config: ClassifierTrainConfig, data: readonly Example[], log: (line: string) => void): ClassifierWeights {
  const inputs = data[0]!.x.length;
  const H = config.hidden;
  const rng = new Rng(config.seed);
  const { flat: params, weights: m } = allocate(inputs, H, config.wordBuckets);
  const { flat: grad, weights: g } = allocate(inputs, H, config.wordBuckets);
  // He initialization for the ReLU layer, small for the heads.
  for (let i = 0; i < m.w1.length; i++) m.w1[i] = rng.normal() * Math.sqrt(2 / inputs);
  for (let i = 0; i < m.w2.length; i++) m.w2[i] = rng.normal() * 0.01;
  for (let i = 0; i < m.wd.length; i++) m.wd[i] = rng.normal() * 0.01;

  const counts = new Map<TaskClass, number>();
  let total = 0;
  for (const e of data) {
    counts.set(e.task, (counts.get(e.task) ?? 0) + e.weight);
    total += e.weight;
  }
  const classWeight = new Map<TaskClass, number>();
  for (const [task, n] of counts) classWeight.set(task, (total / counts.size / n) ** config.classWeightPower * (config.classBoost[task] ?? 1));

  const mom = new Float64Array(params.length);
  const vel = new Float64Array(params.length);
  const dh = new Float64Array(H);
  // The word table is the last block of the flat arrays (see allocate).
  const denseLength = params.length - config.wordBuckets * H;
  const dense = grad.subarray(0, denseLength);
  const rows = new Set<number>();
  // Its own stream, so the shuffles are the same whatever the dropout rate.
  const dropRng = new Rng(config.seed + 1);
  let step = 0;
  for (let epoch = 1; epoch <= config.epochs; epoch++) {
    const order = rng.shuffle(data.map((_, i) => i));
    let loss = 0;
    for (let start = 0; start < order.length; start += config.batchSize) {
      const batch = order.slice(start, start + config.batchSize);
      // The word table is updated lazily: only the rows of words in this batch (LazyAdam); the rest of
      // its million parameters would otherwise dominate every step.
      dense.fill(0);
      rows.clear();
      for (const idx of batch) {
        const e = data[idx]!;
        const w = (e.weight * classWeight.get(e.task)!) / batch.length;
        const bag = dropWords(e.bag, config.wordDropout, dropRng);
        const f = forward(m, e.x, bag);
        const y = TASK_CLASSES.indexOf(e.task);
        loss -= e.weight * classWeight.get(e.task)! * Math.log(f.probs[y]! + 1e-12);
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
        for (let b = 0; b < bag.length; b++) {
          const wb = bag.weights[b]!;
          rows.add(bag.ids[b]!);
          const row = bag.ids[b]! * H;
          for (let j = 0; j < H; j++) g.wt[row + j]! += wb * dh[j]!;
        }
      }
      step++;
      const lr = (config.learningRate * Math.sqrt(1 - 0.999 ** step)) / (1 - 0.9 ** step);
      const adam = (from: number, to: number) => {
        for (let p = from; p < to; p++) {
          const gp = grad[p]! + config.l2 * params[p]!;
          mom[p] = 0.9 * mom[p]! + 0.1 * gp;
          vel[p] = 0.999 * vel[p]! + 0.001 * gp * gp;
          params[p]! -= (lr * mom[p]!) / (Math.sqrt(vel[p]!) + 1e-8);
        }
      };
      adam(0, denseLength);
      for (const row of rows) {
        adam(denseLength + row * H, denseLength + (row + 1) * H);
        g.wt.fill(0, row * H, (row + 1) * H);
      }
    }
    if (epoch % 5 === 0 || epoch === config.epochs) log(`classifier epoch ${epoch}: weighted loss ${(loss / data.length).toFixed(4)}`);
  }
  return m;
}

/**
 * Several trainings as one network: their hidden layers side by side and each class and difficulty head
 * divided by the count, so the logits are the members' mean (a seed ensemble; the softmax of the mean
 * logit is the normalised geometric mean of the members' probabilities). The exported graph is the same
 * graph, wider; predict, the temperature and the export need nothing else. Issue 26's ninth round: two
 * seeds of one data set moved the written faq/chat lift by more than 70 new rows did.
 */
export function combineTrainings(members: readonly ClassifierWeights[]): ClassifierWeights {
  const first = members[0]!;
  if (members.length === 1) return first;
  const { inputs, wordBuckets } = first;
  const n = members.length;
  const h = first.hidden;
  const H = h * n;
  const out: ClassifierWeights = {
    inputs,
    hidden: H,
    wordBuckets,
    w1: new Float32Array(inputs * H),
    wt: new Float32Array(wordBuckets * H),
    b1: new Float32Array(H),
    w2: new Float32Array(H * K),
    b2: new Float32Array(K),
    wd: new Float32Array(H),
    bd: new Float32Array(1),
  };
  members.forEach((m, i) => {
    if (m.hidden !== h || m.inputs !== inputs || m.wordBuckets !== wordBuckets) throw new Error("combineTrainings: members differ in shape");
    const at = i * h;
    for (let r = 0; r < inputs; r++) out.w1.set(m.w1.subarray(r * h, (r + 1) * h), r * H + at);
    for (let r = 0; r < wordBuckets; r++) out.wt.set(m.wt.subarray(r * h, (r + 1) * h), r * H + at);
    out.b1.set(m.b1, at);
    for (let j = 0; j < h; j++) {
      for (let k = 0; k < K; k++) out.w2[(at + j) * K + k] = m.w2[j * K + k]! / n;
      out.wd[at + j] = m.wd[j]! / n;
    }
    for (let k = 0; k < K; k++) out.b2[k]! += m.b2[k]! / n;
    out.bd[0]! += m.bd[0]! / n;
  });
  return out;
}
