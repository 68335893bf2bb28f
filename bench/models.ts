/**
 * Latency of the three shipped models per call, in this process (one ONNX intra-op thread), and the size
 * of their files: `bun bench/models.ts`. Prints a markdown table. The baseline row, measured in the same
 * run, is the raw feature extraction alone (no ONNX call), to show what the model call itself adds.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { HashFeaturizer, type HashFeatureParams } from "../src/ml/features";
import { DEFAULT_MODELS_DIR, loadModels } from "../src/ml/load";
import { countTokens } from "../src/tokens/count";

const SENTENCES = [
  "The quarterly report shows revenue grew by 12 percent while costs stayed flat.",
  "Please review the attached pull request and point out any race conditions in the cache layer.",
  "Our customers in Germany and France asked for invoices in their own languages.",
  "Write a function that returns the longest palindromic substring of a given string.",
  "The meeting on Thursday was moved to Friday afternoon because the CFO is travelling.",
  "Explain the difference between optimistic and pessimistic locking with an example.",
];

/** A prompt of about `tokens` o200k tokens, built from varied sentences. */
function promptOf(tokens: number): string {
  let text = "";
  for (let i = 0; countTokens(text) < tokens; i++) text += `${SENTENCES[i % SENTENCES.length]} (${i}) `;
  return text.trim();
}

async function measure(fn: () => Promise<unknown> | unknown, iterations: number): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(200, iterations); i++) await fn();
  const times = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn();
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
  let flip = false;
  // Compressed variant for the quality score: every fourth word dropped.
  const compressed = text.split(" ").filter((_, i) => i % 4 !== 3).join(" ");
  const cases: [string, () => unknown][] = [
    ["features only (baseline)", () => featurizer.featurize(text)],
    ["embed", () => models.embed(text)],
    ["classify (embedding given)", () => models.classify(text, embedding)],
    ["classify (embeds too)", () => models.classify(text)],
    ["quality (same original: 1 embed + checks)", () => models.quality(text, compressed)],
    // Alternating between two originals defeats the last-original memo, so both texts are embedded.
    ["quality (new original each call: 2 embeds + checks)", () => models.quality((flip = !flip) ? text : `${text} `, compressed)],
  ];
  for (const [call, fn] of cases) {
    const { p50, p99 } = await measure(fn, iterations);
    rows.push(`| ${call} | ${name} | ${tokens} | ${p50.toFixed(0)} | ${p99.toFixed(0)} |`);
  }
}

const files = ["embedding/model.onnx", "embedding/features.json", "task-classifier/model.onnx", "task-classifier/config.json", "quality-score/calibration.json"];
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
