/**
 * Latency of the three shipped models per call, in this process (one ONNX intra-op thread), and the size
 * of their files: `bun bench/models.ts`. Prints a markdown table. The baseline row, measured in the same
 * run, is the raw feature extraction alone (no ONNX call), to show what the model call itself adds.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { HashFeaturizer, type HashFeatureParams } from "../src/ml/features";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { loadModels } from "../src/pipeline/models";
import { countTokens } from "../src/tokens/count";
import { loadWorkload } from "./lib/workload";

/**
 * A prompt of about `tokens` o200k tokens of varied real prose (distinct STS Benchmark sentences, the
 * benchmark's own workload). Varied text matters: the embedding's cost grows with the number of distinct
 * words and n-grams, and a few sentences repeated would flatter it.
 */
function promptOf(tokens: number): string {
  const { sentences } = loadWorkload(tokens);
  let text = "";
  for (let i = 0; countTokens(text) < tokens; i++) text += `${sentences[(i * 97) % sentences.length]} `;
  return text.trim();
}

/** `fn` gets the call number, so a case can make every call's text new (see `fresh`). */
async function measure(fn: (call: number) => Promise<unknown> | unknown, iterations: number): Promise<{ p50: number; p99: number }> {
  const warmUp = Math.min(200, iterations);
  for (let i = 0; i < warmUp; i++) await fn(iterations + i);
  const times = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    times[i] = (performance.now() - t0) * 1000;
  }
  times.sort();
  return { p50: times[Math.floor(iterations * 0.5)]!, p99: times[Math.floor(iterations * 0.99)]! };
}

const models = await loadModels();
const featurizer = new HashFeaturizer((await Bun.file(join(DEFAULT_MODELS_DIR, "embedding", "features.json")).json()).features as HashFeatureParams);
const inputs = { short: "How do I reset my password?", "200 tokens": promptOf(200), "1k tokens": promptOf(1000) };
const iterations = Number(process.env.BENCH_ITERATIONS ?? 2000);

const rows: string[] = ["| call | input | tokens | p50 µs | p99 µs |", "|---|---|---:|---:|---:|"];
for (const [name, text] of Object.entries(inputs)) {
  const tokens = countTokens(text);
  const embedding = await models.embed(text);
  // Compressed variant for the quality score: every fourth word dropped.
  const compressed = text
    .split(" ")
    .filter((_, i) => i % 4 !== 3)
    .join(" ");
  // A word of its own per call: the embedder remembers recent texts, and a repeated text would only
  // measure that memo.
  const fresh = (s: string, call: number) => `${s} v${call}`;
  const cases: [string, (call: number) => unknown][] = [
    ["features only (baseline)", () => featurizer.featurize(text)],
    ["embed", (call) => models.embed(fresh(text, call))],
    ["classify (embedding given)", () => models.classify(text, embedding)],
    ["classify (embeds too)", (call) => models.classify(fresh(text, call))],
    ["quality (same original)", (call) => models.quality(text, fresh(compressed, call))],
    ["quality (new original each call)", (call) => models.quality(fresh(text, call), fresh(compressed, call))],
  ];
  for (const [call, fn] of cases) {
    const { p50, p99 } = await measure(fn, iterations);
    rows.push(`| ${call} | ${name} | ${tokens} | ${p50.toFixed(0)} | ${p99.toFixed(0)} |`);
  }
}

const files = [
  "embedding/model.onnx",
  "embedding/features.json",
  "task-classifier/model.onnx",
  "task-classifier/config.json",
  "quality-score/calibration.json",
];
rows.push("", "| file | bytes |", "|---|---:|");
let total = 0;
for (const f of files) {
  const size = statSync(join(DEFAULT_MODELS_DIR, f)).size;
  total += size;
  rows.push(`| models/${f} | ${size.toLocaleString("en-US")} |`);
}
rows.push(`| total | ${total.toLocaleString("en-US")} |`);
console.log(`Models bench (${iterations} calls each, after warm-up; Bun ${Bun.version}, onnxruntime-node, 1 intra-op thread)\n`);
console.log(rows.join("\n"));
