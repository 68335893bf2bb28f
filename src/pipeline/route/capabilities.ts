import { readFileSync } from "node:fs";
import bundledCapabilities from "../../catalog/capabilities.json";
import { TIERS, type Tier } from "../../catalog/catalog";
import { TASK_CLASSES, type TaskClass } from "../../ml/types";

export const DIFFICULTY_BANDS = ["easy", "medium", "hard"] as const;
export type DifficultyBand = (typeof DIFFICULTY_BANDS)[number];

/**
 * Which tier each kind of task needs: the operator's knob between cost and quality. The bundled
 * table is src/catalog/capabilities.json; an operator edits a copy and passes its path to
 * `loadCapabilities`.
 */
export interface CapabilityTable {
  /** difficulty < medium_from is easy, < hard_from is medium, the rest is hard. */
  difficulty_bands: { medium_from: number; hard_from: number };
  /**
   * Below this probability that the task needs no more than the chosen tier (the summed class
   * probabilities of every class whose own tier is no higher), the router goes one tier up: an
   * unsure classifier should cost money, not quality.
   */
  tier_confidence_threshold: number;
  /**
   * A prompt the table would send to the cheapest tier goes to balanced when one of these signals of a
   * hard prompt (src/text/hardness.ts) reaches its threshold; 0 turns a signal off.
   */
  hard_prompt: {
    /** Cues that bind the answer ("must", "at most", "unless", "before"...). */
    constraints_from: number;
    /** Sequence cues ("first", "then", "finally", "step by step"...). */
    steps_from: number;
    /** Output length the prompt asks for, in words ("in 1500 words", "a 3 page report"). */
    requested_words_from: number;
    /** Prompt tokens to reason over (all messages). */
    context_tokens_from: number;
    /** Requests to weigh options or argue a judgement ("trade-offs", "pros and cons", "is it worth"...). */
    deliberation_from: number;
    /** Names of a mathematical operation ("factorial", "squared", "divisors of", "probability of"...). */
    calculation_from: number;
    /**
     * `calculation_from` applies only to prompts under this many tokens: a long role-play or system
     * set-up mentions "equations" in passing (awesome-chatgpt-prompts' rows did), a short prompt that
     * names one asks for it.
     */
    calculation_below_tokens: number;
    /** The prompt asks for an estimate to be worked out ("estimate how many...", "Fermi", "ballpark"). */
    estimation: boolean;
  };
  /**
   * A stricter tier_confidence_threshold for a long prompt the classifier calls a factual question or
   * small talk: those are short by nature, and the hard prompts the classifier takes for them are
   * longer, so there even a small probability of a harder class lifts the prompt (`long_question`).
   * `tokens_from` 0 turns it off.
   */
  long_question: {
    classes: TaskClass[];
    tokens_from: number;
    tier_confidence_threshold: number;
    /**
     * A prompt that asks the assistant about itself as small talk does (`PromptSignals.smallTalk`) is not
     * lifted by its length: long personal news ending in "how's your week been?" is conversation.
     */
    spare_small_talk: boolean;
  };
  /**
   * A prompt the table sends to the cheapest tier whose words are software or system-administration terms
   * at least `share_from` of the time (PromptSignals.softwareShare, 0..1) goes up a tier (`software_terms`)
   * when it was taken for one of `classes`, or when the probability that the cheapest tier will do is below
   * `tier_confidence_threshold` (stricter than the general one): the classifier can be sure of small talk
   * and wrong about a Terraform request. The bundled `classes` hold chat only: fields picked from JSON or logs,
   * stories and translations of technical text are full of software words too (README, "Routing"). `share_from` 0
   * turns it off.
   */
  software_terms: { classes: TaskClass[]; share_from: number; tier_confidence_threshold: number };
  /** A `most_capable` entry applies only when the classifier is at least this sure of the class; otherwise balanced. */
  most_capable_min_confidence: number;
  /** Fraction of a context window kept free, since providers A and C count tokens differently from o200k. */
  context_headroom: number;
  /** Classes that become `code` when the prompt holds a fenced code block ("fix this: ```...```" is code work). */
  code_fence_classes: TaskClass[];
  /** Minimum tier per class and difficulty band. */
  classes: Record<TaskClass, Record<DifficultyBand, Tier>>;
}

export function loadCapabilities(path?: string): CapabilityTable {
  if (!path) return parseCapabilities(bundledCapabilities);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`capabilities file ${path}: ${(e as Error).message}`);
  }
  return parseCapabilities(raw, path);
}

/** Checks every field, so that a typo in an operator's file stops start-up with its name instead of misrouting. */
export function parseCapabilities(raw: unknown, source = "capabilities"): CapabilityTable {
  const fail = (field: string, why: string): never => {
    throw new Error(`${source}: ${field} ${why}`);
  };
  const obj = (v: unknown, field: string): Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(field, "must be an object");
  const unit = (v: unknown, field: string): number => (typeof v === "number" && v >= 0 && v <= 1 ? v : fail(field, "must be a number from 0 to 1"));
  const tier = (v: unknown, field: string): Tier => (TIERS.includes(v as Tier) ? (v as Tier) : fail(field, `must be one of ${TIERS.join(", ")}`));
  const taskClass = (v: unknown, field: string): TaskClass =>
    TASK_CLASSES.includes(v as TaskClass) ? (v as TaskClass) : fail(field, `must be one of ${TASK_CLASSES.join(", ")}`);

  const top = obj(raw, "the file");
  const bands = obj(top.difficulty_bands, "difficulty_bands");
  const medium_from = unit(bands.medium_from, "difficulty_bands.medium_from");
  const hard_from = unit(bands.hard_from, "difficulty_bands.hard_from");
  if (hard_from < medium_from) fail("difficulty_bands.hard_from", "must not be below medium_from");

  const flag = (v: unknown, field: string): boolean => (typeof v === "boolean" ? v : fail(field, "must be true or false"));
  const count = (v: unknown, field: string): number =>
    typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : fail(field, "must be a whole number, 0 or more (0 turns the signal off)");
  const hard = obj(top.hard_prompt, "hard_prompt");
  const hard_prompt = {
    constraints_from: count(hard.constraints_from, "hard_prompt.constraints_from"),
    steps_from: count(hard.steps_from, "hard_prompt.steps_from"),
    requested_words_from: count(hard.requested_words_from, "hard_prompt.requested_words_from"),
    context_tokens_from: count(hard.context_tokens_from, "hard_prompt.context_tokens_from"),
    // Added in issue 26's fifth round: an operator's copy made before it still loads, with the shipped value.
    deliberation_from: hard.deliberation_from === undefined ? 1 : count(hard.deliberation_from, "hard_prompt.deliberation_from"),
    // Added in issue 26's ninth round, the same way.
    calculation_from: hard.calculation_from === undefined ? 1 : count(hard.calculation_from, "hard_prompt.calculation_from"),
    calculation_below_tokens: hard.calculation_below_tokens === undefined ? 80 : count(hard.calculation_below_tokens, "hard_prompt.calculation_below_tokens"),
    // Added in issue 26's seventeenth round, the same way.
    estimation: hard.estimation === undefined ? true : flag(hard.estimation, "hard_prompt.estimation"),
  };

  const long = obj(top.long_question, "long_question");
  if (!Array.isArray(long.classes)) fail("long_question.classes", "must be an array of task classes");
  const long_question = {
    classes: (long.classes as unknown[]).map((c, i) => taskClass(c, `long_question.classes[${i}]`)),
    tokens_from: count(long.tokens_from, "long_question.tokens_from"),
    tier_confidence_threshold: unit(long.tier_confidence_threshold, "long_question.tier_confidence_threshold"),
    // Added in issue 26's twelfth round: an operator's copy made before it still loads, with the shipped value.
    spare_small_talk: long.spare_small_talk === undefined ? true : flag(long.spare_small_talk, "long_question.spare_small_talk"),
  };

  // Added in issue 26's seventeenth round: an operator's copy made before it loads with the shipped rule.
  const software = obj(top.software_terms === undefined ? bundledCapabilities.software_terms : top.software_terms, "software_terms");
  if (!Array.isArray(software.classes)) fail("software_terms.classes", "must be an array of task classes");
  const software_terms = {
    classes: (software.classes as unknown[]).map((c, i) => taskClass(c, `software_terms.classes[${i}]`)),
    share_from: unit(software.share_from, "software_terms.share_from"),
    tier_confidence_threshold: unit(software.tier_confidence_threshold, "software_terms.tier_confidence_threshold"),
  };

  const fences = top.code_fence_classes;
  if (!Array.isArray(fences)) fail("code_fence_classes", "must be an array of task classes");
  const classesRaw = obj(top.classes, "classes");
  const classes = {} as CapabilityTable["classes"];
  for (const c of TASK_CLASSES) {
    const row = obj(classesRaw[c], `classes.${c}`);
    classes[c] = { easy: tier(row.easy, `classes.${c}.easy`), medium: tier(row.medium, `classes.${c}.medium`), hard: tier(row.hard, `classes.${c}.hard`) };
  }
  for (const c of Object.keys(classesRaw)) taskClass(c, `classes.${c}`);

  return {
    difficulty_bands: { medium_from, hard_from },
    tier_confidence_threshold: unit(top.tier_confidence_threshold, "tier_confidence_threshold"),
    hard_prompt,
    long_question,
    software_terms,
    most_capable_min_confidence: unit(top.most_capable_min_confidence, "most_capable_min_confidence"),
    context_headroom: unit(top.context_headroom, "context_headroom"),
    code_fence_classes: (fences as unknown[]).map((c, i) => taskClass(c, `code_fence_classes[${i}]`)),
    classes,
  };
}

export function difficultyBand(table: CapabilityTable, difficulty: number): DifficultyBand {
  if (difficulty >= table.difficulty_bands.hard_from) return "hard";
  if (difficulty >= table.difficulty_bands.medium_from) return "medium";
  return "easy";
}
