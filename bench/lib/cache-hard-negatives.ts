/**
 * Hard negatives for the semantic cache that keep every word and change what is asked: real prompts
 * from ../shared/data with two arguments swapped, a relation reversed or changed, a code or math
 * operator or bracket changed, or a quantifier changed ("all" / "some"). A cache that reads prompts as bags of words serves each of them the
 * other's answer (issue 24). Used by bench/cache-eval.ts and test/cache/hard-negatives.test.ts.
 *
 * Split by source, so that what the verifier was written against and what it is judged on share no
 * text: TUNE_SOURCES are the prompts looked at while writing it, TEST_SOURCES are only counted.
 */
import { existsSync } from "node:fs";
import { readCsv, readJsonl } from "../../models/data/corpus";
import { dataPath } from "../../models/data/paths";
import type { Rng } from "../../models/data/rng";
import { contentStem } from "../../src/pipeline/cache/facets";

export const TUNE_SOURCES = ["awesome-chatgpt-prompts", "self-instruct-user-oriented", "mbpp", "arena-hard v0.1"] as const;
export const TEST_SOURCES = ["gsm8k", "humaneval", "mt-bench", "vicuna-bench", "arena-hard v2.0"] as const;
export type Source = (typeof TUNE_SOURCES)[number] | (typeof TEST_SOURCES)[number];

export const haveSharedData = existsSync(dataPath("gsm8k", "train.jsonl"));

/** The prompts of each source, trimmed, deduplicated, at most `maxChars` long (longer ones get only the exact layer). */
export function promptsBySource(maxChars: number): Map<Source, string[]> {
  const raw: [Source, string[]][] = [
    ["arena-hard v0.1", readJsonl<{ prompt: string }>(dataPath("arena-hard", "v0.1-question.jsonl")).map((r) => r.prompt)],
    ["arena-hard v2.0", readJsonl<{ prompt: string }>(dataPath("arena-hard", "v2.0-question.jsonl")).map((r) => r.prompt)],
    ["mt-bench", readJsonl<{ turns: string[] }>(dataPath("mt-bench", "question.jsonl")).flatMap((r) => r.turns)],
    ["vicuna-bench", readJsonl<{ turns: string[] }>(dataPath("vicuna-bench", "question.jsonl")).flatMap((r) => r.turns)],
    ["gsm8k", readJsonl<{ question: string }>(dataPath("gsm8k", "train.jsonl")).map((r) => r.question)],
    ["mbpp", readJsonl<{ text: string }>(dataPath("mbpp", "mbpp.jsonl")).map((r) => r.text)],
    ["humaneval", readJsonl<{ prompt: string }>(dataPath("humaneval", "HumanEval.jsonl.gz")).map((r) => r.prompt)],
    [
      "self-instruct-user-oriented",
      readJsonl<{ instruction: string }>(dataPath("self-instruct-user-oriented", "user_oriented_instructions.jsonl")).map((r) => r.instruction),
    ],
    [
      "awesome-chatgpt-prompts",
      readCsv(dataPath("awesome-chatgpt-prompts", "prompts.csv"))
        .slice(1)
        .map((row) => row[1] ?? ""),
    ],
  ];
  const seen = new Set<string>();
  const out = new Map<Source, string[]>();
  for (const [source, texts] of raw) {
    const kept: string[] = [];
    for (const t of texts.map((x) => x.trim())) {
      if (t.length < 20 || t.length > maxChars || seen.has(t)) continue;
      seen.add(t);
      kept.push(t);
    }
    out.set(source, kept);
  }
  return out;
}

export function splitPrompts(bySource: Map<Source, string[]>, split: "tune" | "test"): string[] {
  return (split === "tune" ? TUNE_SOURCES : TEST_SOURCES).flatMap((s) => bySource.get(s) ?? []);
}

interface Span {
  start: number;
  end: number;
  text: string;
}

function spans(text: string, re: RegExp): Span[] {
  return [...text.matchAll(re)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, text: m[0] }));
}

/** `text` with spans `x` and `y` (x before y, not overlapping) exchanged. */
function exchange(text: string, x: Span, y: Span): string {
  return text.slice(0, x.start) + y.text + text.slice(x.end, y.start) + x.text + text.slice(y.end);
}

/**
 * Two members of a list keep the meaning when exchanged ("apples and pears", "3, 4 and 5"), and two
 * neighbouring words may too ("a short, funny poem"): such pairs are not negatives. Two words count
 * as arguments apart when another word stands between them and no "and", "or" or comma does alone.
 */
function farApart(text: string, x: Span, y: Span): boolean {
  const between = text.slice(x.end, y.start);
  const words = between.match(/[\p{L}\p{N}]+/gu) ?? [];
  // Not two members of a list ("Positive, Negative, or Neutral"), nor terms of a sum ("n+(n-2)+(n-4)").
  if (!words.some((w) => /\p{L}{2}/u.test(w)) || (/,|\b(?:and|or)\b|&/.test(between) && words.length <= 6)) return false;
  // A sentence end between them: two clauses, where swapping may only reorder what is said.
  return !/[.!?;\n]/.test(between);
}

/** Exchanges the first pair of distinct spans matched by `re` that stand apart as arguments. */
function swapPair(text: string, re: RegExp, rng: Rng): string | null {
  const found = spans(text, re);
  const pairs: [Span, Span][] = [];
  for (let i = 0; i < found.length; i++) {
    for (let j = i + 1; j < found.length; j++) {
      const [x, y] = [found[i]!, found[j]!];
      if (x.text.toLowerCase() === y.text.toLowerCase() || !farApart(text, x, y)) continue;
      // "20" and "20.00" are one value: swapping them asks the same (bench/cache-eval.ts --seed 1 counted "20% off of $20.00" / "20.00% off of $20").
      if (re === NUMBER && Number(x.text) === Number(y.text)) continue;
      // Each must be the only occurrence: "Tom ... Tom ... Ann" swapped once leaves Tom on both sides.
      if (found.filter((s) => s.text === x.text || s.text === y.text).length !== 2) continue;
      pairs.push([x, y]);
    }
  }
  if (pairs.length === 0) return null;
  const [x, y] = pairs[rng.int(pairs.length)]!;
  return exchange(text, x, y);
}

const STOP = new Set(
  "about above after again against because before being below between both could does doing during each from further having here into itself more most other ought same should some such than that their theirs them then there these they this those through under until very what when where which while whom would your yours yourself please write following given using also just like make sure only even much many well".split(
    " ",
  ),
);

const NAME = /(?<=[a-z,;] )[A-Z][a-z]{2,}\b/g;
const NUMBER = /(?<![\w.,])\d+(?:\.\d+)?(?![\w.,]\d)/g;
const CONTENT = /(?<![\w'-])[a-z]{4,}(?![\w'-])/g;

/** Words the verifier reads as content, of different stems: "months" / "month" and intensifiers ("already") do not make a negative. */
function swapContentWords(text: string, rng: Rng): string | null {
  const words = spans(text, CONTENT).filter((s) => !STOP.has(s.text) && contentStem(s.text) !== undefined);
  if (new Set(words.map((w) => contentStem(w.text))).size < words.length) return null;
  if (words.length < 2) return null;
  const re = new RegExp(`(?<![\\w'-])(?:${[...new Set(words.map((w) => w.text))].join("|")})(?![\\w'-])`, "g");
  return swapPair(text, re, rng);
}

const DET = String.raw`(?:(?:the|a|an|my|your|our|their|his|her|this|that) )?`;
const WORD = String.raw`([\p{L}][\p{L}-]{2,})`;

/** "from X to Y" as "from Y to X"; "convert X to Y" as "convert Y to X"; "X than Y", "X vs Y" the other way round. */
function reverseRelation(text: string): string | null {
  const patterns = [
    new RegExp(String.raw`\bfrom ${DET}${WORD} (?:to|into) ${DET}${WORD}`, "iu"),
    new RegExp(String.raw`\b(?:convert|translate|change|move|migrate|transfer|switch|port|map) ${DET}${WORD} (?:to|into) ${DET}${WORD}`, "iu"),
    new RegExp(String.raw`\b${WORD} (?:is|are|was|were) (?:\w+er|more \w+|less \w+) than ${DET}${WORD}`, "iu"),
    new RegExp(String.raw`\b${WORD} (?:vs\.?|versus) ${WORD}`, "iu"),
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    const [x, y] = [contentStem((m?.[1] ?? "").toLowerCase()), contentStem((m?.[2] ?? "").toLowerCase())];
    if (!m || x === undefined || y === undefined || x === y) continue;
    const first = m.index + m[0].indexOf(m[1]!);
    const second = m.index + m[0].lastIndexOf(m[2]!);
    if (second <= first + m[1]!.length) continue;
    return exchange(text, { start: first, end: first + m[1]!.length, text: m[1]! }, { start: second, end: second + m[2]!.length, text: m[2]! });
  }
  return null;
}

/** A relation word for another, before a noun phrase: "a letter from the landlord" / "a letter to the landlord", "written for children" / "written by children". */
function changeRelation(text: string): string | null {
  const swaps: [RegExp, (w: string) => string][] = [
    [/\bfrom(?= (?:the|a|an|my|your|our|their|his|her|[A-Z]))/, () => "to"],
    [/\b(?:to|into)(?= (?:the|a|an|my|your|our|their|his|her) )/, () => "from"],
    [/\bfor(?= (?:the|a|an|my|your|our|their|his|her|[A-Z]))/, () => "by"],
    [/\bby(?= (?:the|a|an|my|your|our|their|his|her|[A-Z]))/, () => "for"],
  ];
  for (const [re, to] of swaps) {
    const m = re.exec(text);
    if (m) return text.slice(0, m.index) + to(m[0]) + text.slice(m.index + m[0].length);
  }
  return null;
}

/** A code or math operator for a near one, as typed: `!=` / `!==`, `<<` / `>>`, `<=` / `<`, `&&` / `||`, `+` / `-`. */
const OPERATOR_CHANGES: [string, string][] = [
  ["!==", "!="],
  ["===", "=="],
  ["!=", "=="],
  ["==", "="],
  ["<=", "<"],
  [">=", ">"],
  ["<<", ">>"],
  [">>", "<<"],
  ["&&", "||"],
  ["||", "&&"],
  ["**", "*"],
  ["//", "/"],
  ["+=", "-="],
  ["-=", "+="],
  ["+", "-"],
  ["-", "+"],
  ["*", "/"],
  ["/", "*"],
  ["%", "/"],
  ["<", ">"],
  [">", "<"],
];

function changeOperator(text: string): string | null {
  for (const [from, to] of OPERATOR_CHANGES) {
    const esc = from.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    // Between operands, with the spacing either side the same: not part of a longer operator, a path, an arrow or a bullet.
    const m = new RegExp(String.raw`(?<=[\w)\]] ?)(?<![=!<>&|+\-*/%])${esc}(?![=!<>&|+\-*/%])(?= ?[\w(\[])`).exec(text);
    if (m) return text.slice(0, m.index) + to + text.slice(m.index + from.length);
  }
  return null;
}

/**
 * An operator beside a call or a code span changed: "f(x) * g(x)" / "f(x) / g(x)", "`a` == `b`" /
 * "`a` != `b`" (issue 24's fourth session: a hold-out served such a pair; the edit above never
 * reached it, taking the first operator of its list that a prompt has).
 */
function changeOperatorBesideLiteral(text: string): string | null {
  const m = /(?:(?<=\w\([^()\n]{0,40}\))|(?<=`)) ?(\*\*|==|!=|<=|>=|<<|>>|[*/+\-%<>]) ?(?=[\w(`])/.exec(text);
  if (!m) return null;
  const to = OPERATOR_CHANGES.find(([from]) => from === m[1])?.[1];
  if (to === undefined) return null;
  const at = m.index + m[0].indexOf(m[1]!);
  return text.slice(0, at) + to + text.slice(at + m[1]!.length);
}

/** An operand: a number, a one-letter variable (not the words "a", "A" and "I") or a call ("len(a)"). */
const OPERAND = String.raw`(?:\d+(?:\.\d+)?|[B-HJ-Zb-z]|[A-Za-z_]\w*\([^()\n]{0,30}\))`;

/** The two operands of an operator whose order counts swapped: "10 - 3" / "3 - 10", "f(x) / g(x)" / "g(x) / f(x)", "x << 2" / "2 << x". */
function swapOperands(text: string): string | null {
  const m = new RegExp(String.raw`(?<![\w.)\]])(${OPERAND}) (-|/|<<|>>|<=|>=|<|>|%|\*\*|\^) (${OPERAND})(?![\w(.])`).exec(text);
  if (!m || m[1] === m[3]) return null;
  return `${text.slice(0, m.index)}${m[3]} ${m[2]} ${m[1]}${text.slice(m.index + m[0].length)}`;
}

/** A bracketed group with an operator inside, unbracketed or closed one operand earlier: "(a + b) / 2" / "a + b / 2". */
function changeBrackets(text: string): string | null {
  const m =
    /\(([^()\n]{1,40}?[+\-*/%<>=&|][^()\n]{0,40})\)(?=\s*[+\-*/%^]|\s*\*\*)/.exec(text) ??
    /(?<=[+\-*/%^]\s*)\(([^()\n]{1,40}?[+\-*/%][^()\n]{0,40})\)/.exec(text);
  if (!m) return null;
  return text.slice(0, m.index) + m[1]! + text.slice(m.index + m[0].length);
}

/** A quantifier for one of another force: "all" / "some", "most" / "few", "everyone" / "someone". */
const QUANTIFIER_CHANGES: [string, string][] = [
  ["all", "some"],
  ["every", "some"],
  ["each", "some"],
  ["some", "all"],
  ["any", "every"],
  ["most", "few"],
  ["many", "few"],
  ["few", "many"],
  ["several", "all"],
  ["everyone", "someone"],
  ["someone", "everyone"],
  ["everything", "something"],
  ["something", "everything"],
  ["anyone", "everyone"],
];

function changeQuantifier(text: string): string | null {
  for (const [from, to] of QUANTIFIER_CHANGES) {
    const m = new RegExp(String.raw`(?<![\w'-])${from}(?![\w'-])`, "i").exec(text);
    if (m) return text.slice(0, m.index) + (m[0][0] === m[0][0]!.toUpperCase() ? to[0]!.toUpperCase() + to.slice(1) : to) + text.slice(m.index + m[0].length);
  }
  return null;
}

/** Each structural edit by the class it reports under. */
export function structuralEdits(rng: Rng): Record<string, (text: string) => string | null> {
  return {
    "swapped names": (t) => swapPair(t, NAME, rng),
    "swapped numbers": (t) => swapPair(t, NUMBER, rng),
    "swapped content words": (t) => swapContentWords(t, rng),
    "reversed relation": reverseRelation,
    "changed relation word": changeRelation,
    "changed code/math operator": changeOperator,
    "changed operator beside a call or code": changeOperatorBesideLiteral,
    "swapped operands": swapOperands,
    "changed brackets": changeBrackets,
    "changed quantifier": changeQuantifier,
  };
}

export interface EditedPair {
  a: string;
  b: string;
  kind: string;
}

/** Up to `perKind` pairs per edit: a real prompt and what the edit made of it (no edit, or no change: skipped). */
export function editedPairs(prompts: readonly string[], edits: Record<string, (t: string) => string | null>, perKind: number, rng: Rng): EditedPair[] {
  const out: EditedPair[] = [];
  for (const [kind, edit] of Object.entries(edits)) {
    let made = 0;
    for (const p of rng.shuffle([...prompts])) {
      if (made >= perKind) break;
      const b = edit(p);
      if (b === null || b === p) continue;
      out.push({ a: p, b, kind });
      made++;
    }
  }
  return out;
}
