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
 *   gsm8k: instructions, questions, data, role-play set-ups, word problems' stories), the STS Benchmark's
 *   sentences, and a few written here whose social words are the content or whose context is a constraint.
 * A fifth of the prompts (by a hash of their id) is kept back to report precision and recall.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { splitSentences } from "../../src/pipeline/compress/text/sentences";
import { isConfidentSmalltalk, socialFeatures } from "../../src/pipeline/compress/text/social-model";

/** The buckets of a sentence's features, as the model reads them. */
function featuresOf(sentence: string): number[] {
  const out: number[] = [];
  socialFeatures(sentence, (b) => out.push(b));
  return out;
}
import { PROJECT_ROOT } from "../data/paths";
import { Rng } from "../data/rng";
import { arenaHard, awesomeChatgptPrompts, DATA_DIR, gsm8k, mtBench, selfInstruct, vicunaBench, type CorpusPrompt } from "../word-stats/corpora";

const OUT = import.meta.dir;
const SEED = 25;
const EPOCHS = 12;
const L2 = 0.01;
const RATE = 0.2;
const MIN_COUNT = 5;

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

/**
 * The sentences of the STS Benchmark (news, captions, forum posts), as content: statements in the first
 * person ("My teachers have told me it is bad for you.", "I know I'd hate to be him.") that are no
 * framing. Without them the model removed such a sentence from 12 of 2,000 workload prompts
 * (bench/lib/workload builds them from these sentences).
 */
function fromSts(): Labelled[] {
  const seen = new Set<string>();
  for (const file of ["sts-train.csv", "sts-dev.csv"]) {
    for (const line of readFileSync(join(DATA_DIR, "stsbenchmark", file), "utf8").split("\n")) {
      const cols = line.split("\t");
      for (const s of [cols[5], cols[6]]) if (s?.trim()) seen.add(s.trim());
    }
  }
  return [...seen].map((sentence, i) => ({ sentence, social: false, group: `sts:${i}` }));
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
  // Context that is a constraint, though it reads like backstory: the task depends on it.
  "I only have a microwave and a kettle in my dorm.",
  "My audience is mostly retired teachers.",
  "The tone should be cheerful but professional.",
  "My daughter is really into dinosaurs right now.",
  "We're a small team of five people working remotely.",
  "I'm a complete beginner at coding.",
  "I have about an hour a day to practise.",
  "My grandmother is hard of hearing, so the speech needs to be short and clear.",
  "The guests are mostly coworkers from my office.",
  "I'm vegetarian and my husband is gluten intolerant.",
  "I already know the basics of Python.",
  "It needs to fit on a single slide.",
  "I'm planning to read it aloud at the ceremony.",
  "The readers are high school students.",
  "My manager likes things very formal.",
  "I'm on a tight budget this month.",
  "We live in a cold climate with long winters.",
  "The kids are three and seven.",
  "I want it to rhyme.",
  "Keep it under a page.",
  "The party is outdoors in the garden.",
  "I'm writing it for my best friend who loves cats.",
  "My laptop runs Windows and I can't install anything.",
  "I prefer metric units.",
  "Please keep the language simple for my son.",
  "I'm moving to a new city next month and don't know anyone.",
  "I have a job interview for a nursing position on Friday.",
  "I'm applying for a marketing role at a startup.",
  "My dog is a very anxious rescue greyhound.",
  "The recipe should serve a family of four.",
  "I'm allergic to shellfish.",
  "My boss asked me to present this to the board.",
  "I want something my grandparents would enjoy too.",
  "Make it funny but not rude.",
  "Use British spelling throughout.",
  "I'm nervous about public speaking, so make it easy to deliver.",
  "The poem is for my wife on our anniversary.",
  "My students struggle with fractions.",
  "The email goes to a client we've annoyed before.",
  "I have a bad knee, so no running or jumping.",
];

/** Framing sentences in yet other styles, written for this model (training only: in no dev or check set). */
const WRITTEN_SOCIAL = [
  "Long time listener, first time caller haha.",
  "Okay, deep breath, here goes.",
  "So I've been staring at this screen for twenty minutes trying to figure out how to word this.",
  "It's been one of those weeks, you know?",
  "My coffee went cold an hour ago and I'm still at it.",
  "I'm sure you get this kind of thing all the time.",
  "Hope you don't get too many weird ones today lol.",
  "You've honestly been a huge help lately.",
  "I always feel a little awkward talking to a computer like this.",
  "My partner thinks it's hilarious that I say please to you.",
  "Bear with me, I'm still on my first coffee.",
  "Right then, let's get down to business.",
  "I'll keep this short because I know you're busy.",
  "This has been on my to-do list forever.",
  "Honestly I should have sorted this out ages ago.",
  "Crossing my fingers that this makes sense.",
  "I promise this is the last one for today.",
  "You're a much better listener than my husband haha.",
  "Well, here goes nothing.",
  "I'm typing this on my phone in the car park.",
  "It's raining again here, of course.",
  "Hope the servers aren't too busy today.",
  "Just wanted to say you're awesome before I start.",
  "I was up half the night thinking about this.",
  "My brain is mush at this point.",
  "I know, I know, I'm hopeless.",
  "Please bear with my terrible typing.",
  "Apologies in advance for the wall of text.",
  "Okay I think that's everything.",
  "That's about it from me.",
  "Anyway, that's enough rambling from me.",
  "Let me know what you think, I'm all ears.",
  "Looking forward to seeing what you come up with.",
  "Can't wait to see what you suggest.",
  "Fingers crossed you can work your magic.",
  "You always know what to say.",
  "Much love from a very tired student.",
  "Take your time, there's no hurry at all.",
  "Wishing you a peaceful evening.",
  "Have a blessed day ahead.",
  "Sending good vibes your way.",
  "Hugs and thanks in equal measure.",
  "Thanks for always being there for me.",
  "You're the real MVP here.",
  "Much obliged, kind robot.",
  "Cheers for reading all that.",
  "Sorry for going on and on.",
  "I get carried away sometimes, sorry about that.",
  "Ugh, adulting is hard.",
  "Life has been a bit hectic lately.",
  "The kids are at school so I finally have some quiet.",
  "I've got a cup of tea and a biscuit, so I'm ready.",
  "My cat says hello, by the way.",
  "It's a gorgeous day here, hope it's the same where you are.",
  "I've asked around but nobody seems to know.",
  "My friends are sick of me talking about this.",
  "I'm probably overthinking this as usual.",
  "Sorry, my English is not so good.",
  "Excuse my bad English please.",
  "Hoping you can shed some light on this.",
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
  const publicContent = fromPublic([...selfInstruct(), ...vicunaBench(), ...mtBench(), ...arenaHard(), ...awesomeChatgptPrompts(), ...gsm8k(1500)]);
  const written = [
    ...WRITTEN_CONTENT.map((sentence, i) => ({ sentence, social: false, group: `written:${i}` })),
    ...WRITTEN_SOCIAL.map((sentence, i) => ({ sentence, social: true, group: `written-social:${i}` })),
  ];
  return [...chattyAgainst, ...publicContent, ...fromSts(), ...written];
}

interface Model {
  bias: number;
  weights: Map<number, number>;
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
function predict(model: Model, features: number[]): number {
  let z = model.bias;
  for (const f of features) z += model.weights.get(f) ?? 0;
  return sigmoid(z);
}

function train(rows: { features: number[]; social: boolean }[]): Model {
  const counts = new Map<number, number>();
  for (const r of rows) for (const f of r.features) counts.set(f, (counts.get(f) ?? 0) + 1);
  const known = (f: number) => (counts.get(f) ?? 0) >= MIN_COUNT;
  const positives = rows.filter((r) => r.social).length;
  // Each class weighs as much as the other in total: social sentences are a tenth of the rows.
  const weightOf = (social: boolean) => (social ? rows.length / (2 * positives) : rows.length / (2 * (rows.length - positives)));
  const model: Model = { bias: 0, weights: new Map() };
  const squares = new Map<number, number>();
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

/** Trains the model on the labelled sentences and writes weights.json and metrics.json into `outDir`. */
export function buildSocialSentenceModel(outDir: string, log: (line: string) => void): void {
  const all = dataset();
  const featurized = all.map((r) => ({ ...r, features: featuresOf(r.sentence) }));
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
  const thresholds = [0.5, 0.75, 0.9, 0.95, 0.98];
  const socialKeptBack = testRows.filter((r) => r.social).length;
  /** Precision and recall over the kept-back sentences among `rows` at each threshold. */
  const byThreshold = (rows: typeof testRows) =>
    Object.fromEntries(
      thresholds.map((t) => {
        const flagged = rows.filter((r) => predict(model, r.features) >= t);
        const tp = flagged.filter((r) => r.social).length;
        return [
          t,
          { precision: +(tp / Math.max(1, flagged.length)).toFixed(4), recall: +(tp / socialKeptBack).toFixed(4), contentFlagged: flagged.length - tp },
        ];
      }),
    );
  metrics.keptBack = byThreshold(testRows);
  // As the smalltalk rule uses it: only sentences its guards let through (threshold 0: the guards alone).
  const guarded = testRows.filter((r) => isConfidentSmalltalk(r.sentence, 0));
  metrics.keptBackGuarded = byThreshold(guarded);
  const weights = [...model.weights]
    .filter(([, w]) => Math.abs(w) >= 0.1)
    .sort(([a], [b]) => a - b)
    .map(([bucket, w]) => [bucket, Math.round(w * 1e4) / 1e4]);
  writeFileSync(join(outDir, "weights.json"), `${JSON.stringify({ bias: Math.round(model.bias * 1e4) / 1e4, weights })}\n`);
  writeFileSync(join(outDir, "metrics.json"), `${JSON.stringify(metrics, null, 2)}\n`);
  log(`social-sentence: ${weights.length} weights, kept back ${JSON.stringify(metrics.keptBack)}`);
  const falsePositives = guarded.filter((r) => !r.social && predict(model, r.features) >= 0.9).map((r) => `  ${r.group}: ${r.sentence}`);
  log(`content kept back that the guards let through at p >= 0.9 (${falsePositives.length}):\n${falsePositives.slice(0, 40).join("\n")}`);
}

if (import.meta.main) buildSocialSentenceModel(OUT, console.log);
