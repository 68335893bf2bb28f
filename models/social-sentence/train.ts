/**
 * Trains the social-sentence model (src/pipeline/compress/text/social-model.ts): logistic regression over
 * word, word-pair, first-word and last-token features, L2-regularised, AdaGrad, from a fixed seed.
 * Run: bun models/social-sentence/train.ts   (reads ../shared/data and bench/data, writes weights.json and metrics.json)
 *
 * Labelled sentences (MODEL_CARD.md):
 * - social: sentences of our chatty corpora's prompts that share no content word with the prompt's task
 *   (the corpora keep each prompt's bare task apart: greetings, well-wishing, backstory, apologies, thanks,
 *   sign-offs), from the corpora written against only (never chatty-prompts.json's hold-out,
 *   chatty-blind-7.json, chatty-dev-9.json's hold-out or chatty-check-10.json);
 * - content: the sentences of those prompts that are mostly their task's words, every sentence of the
 *   public prompts of ../shared/data (self-instruct, vicuna-bench, mt-bench, arena-hard, awesome-chatgpt-prompts,
 *   gsm8k: instructions, questions, data, role-play set-ups, word problems' stories), and a few written here
 *   whose social words are the content.
 * A fifth of the prompts (by a hash of their id) is kept back to report precision and recall.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { splitSentences } from "../../src/pipeline/compress/text/sentences";
import { socialFeatures } from "../../src/pipeline/compress/text/social-model";
import { PROJECT_ROOT } from "../data/paths";
import { Rng } from "../data/rng";
import { arenaHard, awesomeChatgptPrompts, gsm8k, mtBench, selfInstruct, vicunaBench, type CorpusPrompt } from "../word-stats/corpora";

const OUT = import.meta.dir;
const SEED = 25;
const EPOCHS = 12;
const L2 = 0.01;
const RATE = 0.2;
const MIN_COUNT = 3;

interface Labelled {
  sentence: string;
  social: boolean;
  /** The prompt it comes from: a prompt's sentences are all kept back or all trained on. */
  group: string;
}

const STOP = new Set(
  "a an the and or but so to of in on at for with from by as is are was were be been am i me my you your it its this that these those can could would will do does did have has had not please just".split(
    " ",
  ),
);
const contentWords = (text: string) =>
  (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .match(/[a-z][a-z']*/g) ?? []
  ).filter((w) => !STOP.has(w));

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
const keptBack = (group: string) => hash(group) % 5 === 0;

const sentencesOf = (text: string) =>
  splitSentences(text)
    .map((s) => text.slice(s.start, s.end).trim())
    .filter((s) => /[a-z]/i.test(s));

/** Chatty prompts with their bare task: each sentence is social when it has no word of the task, content when it is mostly the task. */
function fromChatty(file: string, keep: (p: { split?: string }) => boolean): Labelled[] {
  const { prompts } = JSON.parse(readFileSync(join(PROJECT_ROOT, "bench", "data", file), "utf8")) as {
    prompts: { id: string; split?: string; task: string; text: string }[];
  };
  const out: Labelled[] = [];
  for (const p of prompts.filter(keep)) {
    const task = new Set(contentWords(p.task));
    const data = p.task.includes(":") ? p.task.slice(p.task.indexOf(":") + 1).trim() : "";
    for (const sentence of sentencesOf(p.text)) {
      if (data !== "" && data.includes(sentence)) continue;
      const words = contentWords(sentence);
      if (words.length === 0) continue;
      const shared = words.filter((w) => task.has(w)).length / words.length;
      if (shared === 0) out.push({ sentence, social: true, group: `${file}:${p.id}` });
      else if (shared >= 0.5) out.push({ sentence, social: false, group: `${file}:${p.id}` });
    }
  }
  return out;
}

/** Framing sentences written for bench/data/chatty-framings.json (its openers and closings). */
function fromFramings(): Labelled[] {
  const f = JSON.parse(readFileSync(join(PROJECT_ROOT, "bench", "data", "chatty-framings.json"), "utf8")) as { openers: string[]; closings: string[] };
  return [...f.openers, ...f.closings].flatMap((text, i) => sentencesOf(text).map((sentence) => ({ sentence, social: true, group: `framings:${i}` })));
}

/** Every sentence of public prompts is content (at most 60 words: a longer one is a paragraph of data). */
function fromPublic(prompts: CorpusPrompt[]): Labelled[] {
  return prompts.flatMap((p) =>
    p.turns.flatMap((turn) =>
      sentencesOf(turn)
        .filter((s) => s.split(/\s+/).length <= 60)
        .map((sentence) => ({ sentence, social: false, group: p.id })),
    ),
  );
}

/** Content whose words are social: what is to be written, translated or asked about. Written for this model. */
const WRITTEN_CONTENT = [
  "Write a thank-you note to my team for all their hard work this year.",
  "Thanks to the team for their support should be the first line.",
  "Draft an apology to a customer whose parcel arrived broken.",
  "Start the letter with sorry for the delay.",
  "Translate hope you are doing well into Italian.",
  "Write a short message wishing my neighbour a happy birthday.",
  "Reply to my friend who said she hopes I'm doing well.",
  "Make the sign-off warmer than kind regards.",
  "Write a farewell card for a colleague who is retiring.",
  "Explain why people say cheers when they drink.",
  "What does lol mean in a text message?",
  "Write a greeting for the top of our newsletter.",
  "Compose a condolence message for a friend who lost her father.",
  "Suggest a polite way to say no to extra work.",
  "Write a welcome message for new members of the book club.",
  "The email should open with a friendly greeting and end with best wishes.",
  "Keep the tone warm and thankful.",
  "I hope the answer covers both the history and the rules.",
  "I am a beginner, so keep the explanation simple.",
  "My kids are vegetarian, so no meat in the recipes.",
  "We only have an hour for the whole meeting.",
  "I'm allergic to nuts.",
  "I live in a small flat with no garden.",
  "My boss prefers short bullet points over long paragraphs.",
  "I'm writing this for a group of nervous first-time flyers.",
  "Sorry is the title of the song I want the lyrics analysed for.",
  "Write a toast that thanks the parents of the bride.",
  "Write a text to my sister saying sorry I missed her party.",
];

function dataset(): Labelled[] {
  const chattyAgainst = [
    fromChatty("chatty-prompts.json", (p) => p.split === "tune"),
    fromChatty("chatty-dev-6.json", () => true),
    fromChatty("chatty-dev-8.json", () => true),
    fromChatty("chatty-dev-9.json", (p) => p.split !== "holdout"),
    fromChatty("chatty-dev-10.json", () => true),
    fromFramings(),
  ].flat();
  const rng = new Rng(SEED);
  const sample = <T>(xs: T[], n: number) => rng.shuffle([...xs]).slice(0, n);
  const publicContent = fromPublic([
    ...selfInstruct(),
    ...vicunaBench(),
    ...mtBench(),
    ...sample(arenaHard(), 500),
    ...sample(awesomeChatgptPrompts(), 500),
    ...gsm8k(1500),
  ]);
  const written = WRITTEN_CONTENT.map((sentence, i) => ({ sentence, social: false, group: `written:${i}` }));
  return [...chattyAgainst, ...publicContent, ...written];
}

interface Model {
  bias: number;
  weights: Map<string, number>;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
function predict(model: Model, features: string[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights.get(f) ?? 0;
  return sigmoid(z);
}

function train(rows: { features: string[]; social: boolean }[]): Model {
  const counts = new Map<string, number>();
  for (const r of rows) for (const f of r.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const known = (f: string) => (counts.get(f) ?? 0) >= MIN_COUNT;
  const positives = rows.filter((r) => r.social).length;
  // Each class weighs as much as the other in total: social sentences are a tenth of the rows.
  const weightOf = (social: boolean) => (social ? rows.length / (2 * positives) : rows.length / (2 * (rows.length - positives)));
  const model: Model = { bias: 0, weights: new Map() };
  const squares = new Map<string, number>();
  let biasSquares = 1e-8;
  const rng = new Rng(SEED);
  const order = rows.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (const i of rng.shuffle(order)) {
      const r = rows[i]!;
      const features = r.features.filter(known);
      const g = (predict(model, features) - (r.social ? 1 : 0)) * weightOf(r.social);
      biasSquares += g * g;
      model.bias -= (RATE * g) / Math.sqrt(biasSquares);
      for (const f of features) {
        const w = model.weights.get(f) ?? 0;
        const grad = g + L2 * w;
        const sq = (squares.get(f) ?? 1e-8) + grad * grad;
        squares.set(f, sq);
        model.weights.set(f, w - (RATE * grad) / Math.sqrt(sq));
      }
    }
  }
  return model;
}

const all = dataset();
const featurized = all.map((r) => ({ ...r, features: socialFeatures(r.sentence) }));
const trainRows = featurized.filter((r) => !keptBack(r.group));
const testRows = featurized.filter((r) => keptBack(r.group));
const model = train(trainRows);

const metrics: Record<string, unknown> = {
  seed: SEED,
  sentences: {
    train: trainRows.length,
    trainSocial: trainRows.filter((r) => r.social).length,
    test: testRows.length,
    testSocial: testRows.filter((r) => r.social).length,
  },
};
const thresholds = [0.5, 0.8, 0.9, 0.95, 0.98];
metrics.keptBack = Object.fromEntries(
  thresholds.map((t) => {
    const flagged = testRows.filter((r) => predict(model, r.features) >= t);
    const tp = flagged.filter((r) => r.social).length;
    return [
      t,
      {
        precision: +(tp / Math.max(1, flagged.length)).toFixed(4),
        recall: +(tp / testRows.filter((r) => r.social).length).toFixed(4),
        contentFlagged: flagged.length - tp,
      },
    ];
  }),
);
const weights: Record<string, number> = {};
for (const [f, w] of [...model.weights].sort(([a], [b]) => (a < b ? -1 : 1))) if (Math.abs(w) >= 0.05) weights[f] = Math.round(w * 1e4) / 1e4;
writeFileSync(join(OUT, "weights.json"), `${JSON.stringify({ bias: Math.round(model.bias * 1e4) / 1e4, weights })}\n`);
writeFileSync(join(OUT, "metrics.json"), `${JSON.stringify(metrics, null, 2)}\n`);
console.log(JSON.stringify(metrics, null, 2));
console.log(`${Object.keys(weights).length} weights`);
const falsePositives = testRows.filter((r) => !r.social && predict(model, r.features) >= 0.9).map((r) => `  ${r.group}: ${r.sentence}`);
console.log(`content kept back at p >= 0.9:\n${falsePositives.slice(0, 40).join("\n")}`);
