import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TASK_CLASSES, type TaskClass } from "../../src/ml/types";
import { readCsv, readJsonl } from "../data/corpus";
import { dataPath } from "../data/paths";
import { Rng } from "../data/rng";

/**
 * The labelled prompts the task classifier learns from, and the one deterministic train/dev split that
 * training and the routing evaluation share. Labels come from each data set's own categories where it
 * has them, and otherwise are derived (see MODEL_CARD.md, "Labels"); `labelSource` says which.
 */
export interface LabelledPrompt {
  /** Stable across runs: `<dataset>:<row id or index>`. */
  id: string;
  text: string;
  task: TaskClass;
  /** 0..1, a proxy derived from where the prompt comes from (see MODEL_CARD.md). */
  difficulty: number;
  dataset: string;
  labelSource: "dataset_category" | "derived_rule" | "synthetic_template" | "authored";
  /**
   * "dev" rows may be looked at while tuning (settings, calibration, thresholds); "holdout" rows (a
   * part of the project's own prompts, fixed by a hash of the text before any tuning) never are: they
   * are for reporting only.
   */
  split: "train" | "dev" | "holdout";
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

/** One row in five is held out, by a hash of its id, so the split never depends on load order. */
export function isHeldOut(id: string): boolean {
  return hash(id) % 5 === 0;
}

/**
 * The project's own prompts (data/prompts.jsonl) by a hash of the text: 3 in 10 are the never-tuned
 * hold-out, 1 in 10 dev, the rest train. Fixed before the first model was trained on them.
 */
export function authoredSplit(text: string): LabelledPrompt["split"] {
  const bucket = hash(text) % 10;
  return bucket < 3 ? "holdout" : bucket === 3 ? "dev" : "train";
}

/**
 * The half of an outside-written dev set that is its check half (issue 26's sixteenth round,
 * data/route-dev12-check.jsonl): odd hashes of the text, fixed before anything was changed or trained.
 */
export function isCheckHalf(text: string): boolean {
  return hash(text) % 2 === 1;
}

/** The words a writer gave each authored row's difficulty, as the 0..1 the difficulty head learns. */
const AUTHORED_DIFFICULTY: Record<string, number> = { easy: 0.15, medium: 0.45, hard: 0.8 };

/**
 * Every row the project wrote for training (data/README.md), with its split: prompts.jsonl by
 * `authoredSplit`; later-rounds.jsonl, written after prompts.jsonl's hold-out had been read by several
 * sessions, 1 in 10 dev and the rest train (its never-tuned counterpart is fresh-holdout.jsonl, so
 * none of it is held out, and prompts.jsonl's hold-out stays the same 501 rows to compare with).
 */
export function authoredPrompts(): LabelledPrompt[] {
  const round13 = round13Loaded();
  return [
    ...authoredFile("prompts.jsonl", authoredSplit),
    ...authoredFile("later-rounds.jsonl", (text) => (hash(text) % 10 === 3 ? "dev" : "train")),
    ...authoredFile("round-5.jsonl", () => "train").filter((r) => !isRoundDev(r.text)),
    ...authoredFile("round-7.jsonl", () => "train").filter((r) => !isRoundDev(r.text)),
    // Issue 26's eleventh round (data/README.md): long formal faq and chat, with formal reasoning, code and
    // math beside them, and casual creative requests; all train, the writers' files are its dev sets.
    // Loaded only when asked (SVC_ROUTE_ROUND11=1): on a blind set (route-holdout-7) the model trained
    // with them sent 5 of 90 code/math/reasoning prompts to the cheapest tier, against 2 of 90 (MODEL_CARD.md).
    ...(process.env.SVC_ROUTE_ROUND11 === "1" || round13 ? authoredFile("round-11.jsonl", () => "train") : []),
    // Issue 26's thirteenth round (data/README.md): faq "why / how / what happens if" questions and chat with
    // numbers, advice-seeking and venting, beside reasoning that looks like faq; trained together with the
    // eleventh round's rows and the twelfth round's dev set (which then stops being a dev set). Loaded only
    // when asked (SVC_ROUTE_ROUND13=1): MODEL_CARD.md, thirteenth round.
    ...(round13 ? ["round-12-dev.jsonl", "round-13.jsonl"].flatMap((name) => authoredFile(name, () => "train")) : []),
    // Issue 26's fourteenth round (data/README.md): reasoning that weighs explanations, trade-offs and small
    // plans asked like faq, beside short practical faq and chat with numbers, on top of the thirteenth
    // round's rows. Loaded only when asked (SVC_ROUTE_ROUND14=1): MODEL_CARD.md, fourteenth round.
    ...(round14Loaded() ? authoredFile("round-14.jsonl", () => "train") : []),
    // Issue 26's fifteenth round (data/README.md): technical faq (what a thing is or means) beside code
    // questions in the same plain words, and chat about devices, on top of the fourteenth round's rows.
    // Loaded only when asked (SVC_ROUTE_ROUND15=1): MODEL_CARD.md, fifteenth round.
    ...(process.env.SVC_ROUTE_ROUND15 === "1" || shippedRounds() ? authoredFile("round-15.jsonl", () => "train") : []),
    // Issue 26's sixteenth round: the train half of an outside writer's dev set (route-dev12, data/README.md),
    // its own source, so that leave-one-source-out holds it out as a fold of its own. Loaded only when asked
    // (SVC_ROUTE_DEV12=1): with the fifteenth round's files it lowered the faq/chat lift on every check set
    // but sent more arena-hard prompts to the cheapest tier left out (MODEL_CARD.md, sixteenth round).
    ...(process.env.SVC_ROUTE_DEV12 === "1" || shippedRounds() ? authoredFile("route-dev12-train.jsonl", () => "train") : []),
    // Issue 26's seventeenth round (data/README.md): faq and chat that read like reasoning beside code,
    // estimation and physics asked in faq's or chat's words; loaded with every round above (shippedRounds).
    ...(shippedRounds() ? authoredFile("round-17.jsonl", () => "train") : []),
    // Issue 26's tenth round: three writers, each a source of its own, so that leave-one-source-out
    // holds each writer out in turn (data/README.md). Loaded only when asked (SVC_ROUTE_WRITERS=1): the
    // model trained with them sent more faq/chat above the cheapest tier on 5 of 6 written sets
    // (MODEL_CARD.md, tenth round), so the shipped model is not trained on them.
    ...(process.env.SVC_ROUTE_WRITERS === "1" ? WRITER_FILES.flatMap((name) => authoredFile(name, () => "train")) : []),
  ];
}

/** Training prompts of three independent writers (issue 26's tenth round), one `source` each. */
export const WRITER_FILES = ["writer-a.jsonl", "writer-b.jsonl", "writer-c.jsonl"];

/**
 * data/round-5.jsonl and data/round-7.jsonl (issue 26's fifth and seventh rounds): 1 row in 4, by a hash
 * of the text, is that round's own dev split, kept out of training, calibration and every other loader so
 * that its figures say how the round's changes do on prompts of its kind it did not learn from
 * (bench/route-eval.ts "round-5 dev", "round-7 dev").
 */
const isRoundDev = (text: string) => hash(text) % 4 === 1;

export function round5Dev(): LabelledPrompt[] {
  return authoredFile("round-5.jsonl", () => "holdout").filter((r) => isRoundDev(r.text));
}

export function round7Dev(): LabelledPrompt[] {
  return authoredFile("round-7.jsonl", () => "holdout").filter((r) => isRoundDev(r.text));
}

/**
 * data/round-9-dev.jsonl: 190 prompts written for issue 26's ninth round before it changed anything (faq
 * and chat with numbers, long casual chats, short hard code and math): never trained on nor in the
 * calibration set; read while choosing that round's changes, so a tuning set (bench/route-eval.ts
 * "round-9 dev").
 */
export function round9Dev(): LabelledPrompt[] {
  return authoredFile("round-9-dev.jsonl", () => "holdout");
}

/**
 * data/round-12-dev.jsonl: 150 prompts written for issue 26's twelfth round before it changed anything:
 * faq and chat that look hard (long, numbers, several parts, "why", formal) and code, math and reasoning
 * that look easy (short, casual), with a few of each other class. Never trained on nor in the calibration
 * set; the tier decision of that round was chosen on them, so a tuning set (bench/route-eval.ts "round-12 dev").
 */
export function round12Dev(): LabelledPrompt[] {
  return round13Loaded() ? [] : authoredFile("round-12-dev.jsonl", () => "holdout");
}

/** The thirteenth round's training rows are loaded (SVC_ROUTE_ROUND13=1), alone or under a later round's. */
const round13Loaded = () => process.env.SVC_ROUTE_ROUND13 === "1" || round14Loaded();

/** The fourteenth round's training rows are loaded (SVC_ROUTE_ROUND14=1), alone or under the fifteenth's (SVC_ROUTE_ROUND15=1). */
const round14Loaded = () => process.env.SVC_ROUTE_ROUND14 === "1" || process.env.SVC_ROUTE_ROUND15 === "1" || shippedRounds();

/**
 * Since issue 26's seventeenth round the shipped model is trained on the rounds' files: the fifteenth's
 * (with the fourteenth's, thirteenth's, eleventh's and round-12 dev), the outside writer's train half
 * (route-dev12-train.jsonl) and round-17.jsonl (MODEL_CARD.md, seventeenth round). SVC_ROUTE_ROUND17=0
 * leaves them out unless their own variable asks for them: the data of the model shipped before.
 */
export const shippedRounds = () => process.env.SVC_ROUTE_ROUND17 !== "0";

/**
 * data/round-13-check.jsonl: 120 prompts written for issue 26's thirteenth round before any of its training
 * rows (faq 40 and chat 30 that look hard, code 15, math 15 and reasoning 20 that look easy). Never trained
 * on nor in the calibration set, and only its totals were read (bench/route-eval.ts "round-13 check").
 */
export function round13Check(): LabelledPrompt[] {
  return authoredFile("round-13-check.jsonl", () => "holdout");
}

/**
 * data/round-14-check.jsonl: 60 prompts written for issue 26's fourteenth round before any of its training
 * rows (faq 20 and chat 10 that a cheap model answers well though they run long or ask "why", code 8, math 7
 * and reasoning 15 that look easy). Never trained on nor in the calibration set, and only its totals were
 * read (bench/route-eval.ts "round-14 check").
 */
export function round14Check(): LabelledPrompt[] {
  return authoredFile("round-14-check.jsonl", () => "holdout");
}

/**
 * data/round-15-check.jsonl: 180 prompts (20 per class) written for issue 26's fifteenth round before it
 * changed anything (practical and technical faq, chat with numbers, hard reasoning asked casually). Never
 * trained on nor in the calibration set, and only its totals were read (bench/route-eval.ts "round-15 check").
 */
export function round15Check(): LabelledPrompt[] {
  return authoredFile("round-15-check.jsonl", () => "holdout");
}

/**
 * data/fresh-holdout.jsonl: prompts written for issue 26's third round before it changed anything and
 * read once at its end; since the fourth round, tuning data (data/README.md): its errors may be read.
 * bench/route-eval.ts still reports it, beside fresh-holdout-2.jsonl.
 */
export function freshHoldout(): LabelledPrompt[] {
  return authoredFile("fresh-holdout.jsonl", () => "holdout");
}

/**
 * data/fresh-holdout-2.jsonl: prompts written for issue 26's fourth round before it changed anything, and
 * never tuned on (data/README.md). No training, calibration or setting reads them; bench/route-eval.ts
 * reports them unless told `--tuning`.
 */
export function freshHoldout2(): LabelledPrompt[] {
  return authoredFile("fresh-holdout-2.jsonl", () => "holdout");
}

/**
 * The three writers' files (issue 26's tenth round) as dev sets, one per writer, while the shipped model
 * is not trained on them (SVC_ROUTE_WRITERS unset): prompts of three registers no training row was
 * written in, for choosing a routing rule (bench/route-rules.ts, bench/route-eval.ts "writer A/B/C").
 * Empty when they are loaded for training.
 */
export function writerDev(): Record<string, LabelledPrompt[]> {
  if (process.env.SVC_ROUTE_WRITERS === "1") return {};
  return Object.fromEntries(WRITER_FILES.map((name) => [`writer ${name.slice(7, 8).toUpperCase()}`, authoredFile(name, () => "holdout")]));
}

/**
 * The written sets no training reads, by name: what routing rules are judged on (bench/route-rules.ts) and
 * what a new written row must not nearly copy (overlap.ts, test/ml/task-classifier-data.test.ts). A set the
 * training reads (round-12 dev with SVC_ROUTE_ROUND13=1, the writers with SVC_ROUTE_WRITERS=1) is empty or absent.
 */
export function writtenDevSets(): Record<string, LabelledPrompt[]> {
  return {
    "round-12 dev": round12Dev(),
    "round-13 check": round13Check(),
    "round-14 check": round14Check(),
    "round-15 check": round15Check(),
    "round-9 dev": round9Dev(),
    "fresh hold-out 2": freshHoldout2(),
    "fresh hold-out": freshHoldout(),
    "round-5 dev": round5Dev(),
    "round-7 dev": round7Dev(),
    ...writerDev(),
  };
}

/**
 * A hold-out file outside this directory, in the same JSON-lines schema (task, difficulty, source, text):
 * `bench/route-eval.ts --holdout FILE` scores the shipped model on it without anything else reading it.
 */
export function holdoutFile(path: string): LabelledPrompt[] {
  return labelledRows(path, () => "holdout");
}

function authoredFile(name: string, split: (text: string) => LabelledPrompt["split"]): LabelledPrompt[] {
  return labelledRows(join(DATA_DIR, name), split);
}

function labelledRows(path: string, split: (text: string) => LabelledPrompt["split"]): LabelledPrompt[] {
  const name = basename(path);
  return readJsonl<{ task: TaskClass; difficulty: string; source: string; text: string }>(path).map((r) => {
    const difficulty = AUTHORED_DIFFICULTY[r.difficulty];
    if (difficulty === undefined || !TASK_CLASSES.includes(r.task)) throw new Error(`${name}: bad row ${JSON.stringify(r)}`);
    return {
      id: `${r.source}:${hash(r.text).toString(16)}`,
      text: r.text,
      task: r.task,
      difficulty,
      dataset: r.source,
      labelSource: "authored",
      split: split(r.text),
    };
  });
}

const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), "data");

type Row = Omit<LabelledPrompt, "split">;

const MT_BENCH: Record<string, TaskClass> = {
  writing: "creative",
  roleplay: "creative",
  reasoning: "reasoning",
  math: "math",
  coding: "code",
  extraction: "extract",
  stem: "faq",
  humanities: "faq",
};

const VICUNA: Record<string, TaskClass> = {
  generic: "faq",
  knowledge: "faq",
  roleplay: "creative",
  "common-sense": "reasoning",
  fermi: "reasoning",
  counterfactual: "reasoning",
  coding: "code",
  math: "math",
  writing: "creative",
};

const ARENA_V2: Record<string, TaskClass> = { coding: "code", math: "math", creative_writing: "creative" };

/** Instruction wording to a class, for data sets without usable categories. First match wins. */
const INSTRUCTION_RULES: [RegExp, TaskClass][] = [
  [/\btranslat(e|ion)\b/i, "translate"],
  [/\bsummar(y|ize|ise|izing)\b|\btl;?dr\b|\bcondense\b/i, "summarize"],
  [/\bextract\b|\b(list|find|identify) (all|every|the)\b.*\b(from|in)\b (the|this|a)\b|\bparse\b/i, "extract"],
  [/\b(code|function|python|javascript|sql|regex|programming|program|script|developer|api|linux|terminal|excel formula)\b/i, "code"],
  [/\b(calculate|equation|math|arithmetic|solve for)\b/i, "math"],
  [/\b(poem|poet|story|stories|lyrics|song|novel|slogan|joke|haiku|screenplay|tweet|creative|storyteller|rapper|composer)\b/i, "creative"],
];

function ruleLabel(text: string): TaskClass | undefined {
  for (const [re, task] of INSTRUCTION_RULES) if (re.test(text)) return task;
  return undefined;
}

/** Templates that wrap real text bodies; the only source of enough summarize/extract/translate rows. */
const TEMPLATES: Record<"summarize" | "extract" | "translate", string[]> = {
  summarize: [
    "Summarize the following text:\n\n{body}",
    "TL;DR:\n{body}",
    "Can you give me a short summary of this?\n{body}",
    "{body}\n\nSummarize the above in three bullet points.",
    "Condense this into one sentence: {body}",
    "Please write a brief summary of the conversation below.\n{body}",
    "What are the key points of this passage?\n\n{body}",
  ],
  extract: [
    "Extract all person names and phone numbers from the text below.\n{body}",
    "From this message, pull out every address and email as JSON:\n{body}",
    "List all the organizations mentioned in the following text.\n{body}",
    "{body}\n\nExtract the dates and amounts from the text above into a table.",
    "Identify the named entities in this sentence and return them as a list: {body}",
    "Parse the following into fields name, email, phone: {body}",
  ],
  translate: [
    "Translate the following into French:\n{body}",
    "Translate to German: {body}",
    'How would you say this in Spanish? "{body}"',
    "{body}\n\nTranslate the text above into Japanese.",
    "Please translate this paragraph to Italian, keeping the tone: {body}",
    "Translate into English: {body}",
  ],
};

function syntheticRows(bodies: string[], seed: number, perClass: number): Row[] {
  const rng = new Rng(seed);
  const rows: Row[] = [];
  for (const task of ["summarize", "extract", "translate"] as const) {
    const templates = TEMPLATES[task];
    for (let i = 0; i < perClass; i++) {
      const template = templates[i % templates.length]!;
      const body = bodies[rng.int(bodies.length)]!;
      rows.push({
        id: `synthetic:${task}:${i}`,
        text: template.replace("{body}", body),
        task,
        difficulty: 0.2,
        dataset: "synthetic",
        labelSource: "synthetic_template",
      });
    }
  }
  return rows;
}

function topicalChatTurns(): string[] {
  const chats = JSON.parse(readFileSync(dataPath("topical-chat", "valid_freq.json"), "utf8")) as Record<string, { content: { message: string }[] }>;
  return Object.values(chats).flatMap((c) => c.content.map((t) => t.message));
}

/** Every labelled prompt, with its split. Deterministic: same rows, labels and split on every call. */
export function loadLabelledPrompts(): LabelledPrompt[] {
  const rows: Row[] = [];
  for (const r of readJsonl<{ task_id: string; prompt: string }>(dataPath("humaneval", "HumanEval.jsonl.gz")))
    rows.push({ id: `humaneval:${r.task_id}`, text: r.prompt, task: "code", difficulty: 0.5, dataset: "humaneval", labelSource: "dataset_category" });
  readJsonl<{ task_id: number; text: string }>(dataPath("mbpp", "mbpp.jsonl")).forEach((r) =>
    rows.push({ id: `mbpp:${r.task_id}`, text: r.text, task: "code", difficulty: 0.3, dataset: "mbpp", labelSource: "dataset_category" }),
  );
  // gsm8k has 7,473 questions; 1,500 are plenty and keep math from drowning the other classes.
  readJsonl<{ question: string }>(dataPath("gsm8k", "train.jsonl"))
    .slice(0, 1500)
    .forEach((r, i) => rows.push({ id: `gsm8k:${i}`, text: r.question, task: "math", difficulty: 0.35, dataset: "gsm8k", labelSource: "dataset_category" }));
  for (const r of readJsonl<{ uid: string; subcategory: string; prompt: string }>(dataPath("arena-hard", "v2.0-question.jsonl"))) {
    const task = ARENA_V2[r.subcategory];
    if (task) rows.push({ id: `arena-hard-v2:${r.uid}`, text: r.prompt, task, difficulty: 0.9, dataset: "arena-hard-v2.0", labelSource: "dataset_category" });
  }
  for (const r of readJsonl<{ question_id: number; category: string; turns: string[] }>(dataPath("mt-bench", "question.jsonl"))) {
    const task = MT_BENCH[r.category];
    if (task) rows.push({ id: `mt-bench:${r.question_id}`, text: r.turns[0]!, task, difficulty: 0.6, dataset: "mt-bench", labelSource: "dataset_category" });
  }
  for (const r of readJsonl<{ question_id: number; category: string; turns: string[] }>(dataPath("vicuna-bench", "question.jsonl"))) {
    const task = VICUNA[r.category];
    if (task)
      rows.push({ id: `vicuna-bench:${r.question_id}`, text: r.turns[0]!, task, difficulty: 0.4, dataset: "vicuna-bench", labelSource: "dataset_category" });
  }
  for (const r of readJsonl<{ id: string; instruction: string; instances: { input: string }[] }>(
    dataPath("self-instruct-user-oriented", "user_oriented_instructions.jsonl"),
  )) {
    const input = r.instances[0]?.input ?? "";
    const text = input ? `${r.instruction}\n\n${input}` : r.instruction;
    rows.push({
      id: `self-instruct:${r.id}`,
      text,
      task: ruleLabel(r.instruction) ?? "chat",
      difficulty: 0.25,
      dataset: "self-instruct",
      labelSource: "derived_rule",
    });
  }
  readCsv(dataPath("awesome-chatgpt-prompts", "prompts.csv"))
    .slice(1)
    .forEach((row, i) => {
      const [act = "", prompt = ""] = row;
      if (!prompt) return;
      // Role-play set-ups: the act names the role (a terminal or a developer is code work, a poet creative); the rest are conversation.
      const task = ruleLabel(act) ?? "chat";
      rows.push({ id: `awesome-prompts:${i}`, text: prompt, task, difficulty: 0.3, dataset: "awesome-chatgpt-prompts", labelSource: "derived_rule" });
    });
  // Real user questions from Stack Exchange (SemEval 2016 question-question): the FAQ class.
  const questions = new Set<string>();
  for (const line of readFileSync(dataPath("semeval-sts", "2016", "question-question.test.tsv"), "utf8").split("\n")) {
    const cols = line.split("\t");
    for (const q of cols.slice(1, 3)) if (q?.trim().endsWith("?")) questions.add(q.trim());
  }
  [...questions].slice(0, 800).forEach((q, i) =>
    rows.push({
      id: `semeval16-questions:${i}`,
      text: q,
      task: "faq",
      difficulty: 0.15,
      dataset: "semeval-2016-question-question",
      labelSource: "derived_rule",
    }),
  );
  // Casual human chat turns (Topical-Chat): the chat class.
  const turns = topicalChatTurns().filter((t) => t.length > 20);
  turns
    .slice(0, 800)
    .forEach((t, i) => rows.push({ id: `topical-chat:${i}`, text: t, task: "chat", difficulty: 0.1, dataset: "topical-chat", labelSource: "derived_rule" }));
  const presidio = JSON.parse(readFileSync(dataPath("presidio-synth-pii", "generated_large.json"), "utf8")) as { full_text: string }[];
  const bodies = [...presidio.map((p) => p.full_text), ...turns.slice(800, 2000)];
  rows.push(...syntheticRows(bodies, 17, 240));
  return [...rows.map((r): LabelledPrompt => ({ ...r, split: isHeldOut(r.id) ? "dev" : "train" })), ...authoredPrompts()];
}
