/**
 * Trains the person-name and street-address tagger (an averaged perceptron over word, shape, case and
 * context-word features; see MODEL_CARD.md).
 * Run: bun models/pii-ner/train.ts   (reads ../shared/data, writes models/pii-ner/{case-profile,weights}.json)
 *
 * Training data: the non-held-out templates of presidio-synth-pii (models/pii-ner/data.ts), of
 * which a fifth of the templates is kept back again as a development set to pick the epoch count.
 * The case profile (how general English writes each word) comes from the unlabelled English corpora
 * the word statistics use. No other data, no pretrained weights.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { features, isCandidate, LABELS, type CaseClass, type Label } from "../../src/pipeline/pii/tagger/features";
import { tokenize, type Token } from "../../src/pipeline/pii/tagger/tokens";
import { arenaHard, awesomeChatgptPrompts, generalEnglish, gsm8k, selfInstruct, vicunaBench } from "../word-stats/corpora";
import { readPresidio, splitPresidio, holdoutTemplates, type PresidioSample } from "./data";
import { Rng } from "../data/rng";

const OUT = import.meta.dir;

// --- the case profile ---------------------------------------------------------------------------
/** Words seen at least this often (not first in a sentence) get a class; rarer ones stay unknown. */
const MIN_SEEN = 3;
/** A class needs this share of the sightings. */
const MAJORITY = 0.7;

function caseProfile(): Map<string, CaseClass> {
  const texts = [...generalEnglish(), ...[awesomeChatgptPrompts(), selfInstruct(), arenaHard(), vicunaBench(), gsm8k()].flat().flatMap((p) => p.turns)];
  const lower = new Map<string, number>();
  const upper = new Map<string, number>();
  for (const text of texts) {
    for (const t of tokenize(text)) {
      // The first word of a sentence or line is capitalised whatever it is.
      if (t.gap === "start" || t.gap === "stop" || t.gap === "newline") continue;
      const c = t.text[0]!;
      if (c >= "0" && c <= "9") continue;
      const into = c === c.toLowerCase() ? lower : upper;
      into.set(t.lower, (into.get(t.lower) ?? 0) + 1);
    }
  }
  const profile = new Map<string, CaseClass>();
  for (const word of new Set([...lower.keys(), ...upper.keys()])) {
    const l = lower.get(word) ?? 0;
    const u = upper.get(word) ?? 0;
    if (l + u < MIN_SEEN) continue;
    if (l >= MAJORITY * (l + u)) profile.set(word, "l");
    else if (u >= MAJORITY * (l + u)) profile.set(word, "u");
  }
  return profile;
}

// --- the tagger ---------------------------------------------------------------------------------
interface Example {
  tokens: Token[];
  gold: Label[];
}

function toExample(s: PresidioSample): Example {
  const tokens = tokenize(s.full_text);
  const gold = tokens.map((t): Label => {
    for (const span of s.spans) {
      if (t.start < span.end_position && t.end > span.start_position) {
        if (span.entity_type === "PERSON") return "PERSON";
        if (span.entity_type === "ADDRESS") return "ADDRESS";
      }
    }
    return "O";
  });
  return { tokens, gold };
}

class Perceptron {
  readonly w = new Map<string, Float64Array>();
  private readonly total = new Map<string, Float64Array>();
  private readonly stamp = new Map<string, Float64Array>();
  private step = 0;

  score(fs: string[], scores: Float64Array): void {
    scores.fill(0);
    for (const f of fs) {
      const w = this.w.get(f);
      if (w) for (let k = 0; k < scores.length; k++) scores[k]! += w[k]!;
    }
  }

  update(fs: string[], truth: number, guess: number): void {
    this.step++;
    for (const f of fs) {
      let w = this.w.get(f);
      if (!w) {
        w = new Float64Array(LABELS.length);
        this.w.set(f, w);
        this.total.set(f, new Float64Array(LABELS.length));
        this.stamp.set(f, new Float64Array(LABELS.length));
      }
      const total = this.total.get(f)!;
      const stamp = this.stamp.get(f)!;
      for (const [k, delta] of [[truth, 1], [guess, -1]] as const) {
        total[k]! += (this.step - stamp[k]!) * w[k]!;
        stamp[k] = this.step;
        w[k]! += delta;
      }
    }
  }

  averaged(): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const [f, w] of this.w) {
      const total = this.total.get(f)!;
      const stamp = this.stamp.get(f)!;
      out.set(f, [...w].map((v, k) => (total[k]! + (this.step - stamp[k]!) * v) / this.step));
    }
    return out;
  }
}

/** Greedy left-to-right pass; with `learn`, updates on each wrong label (its own earlier labels as history, as at inference). */
function pass(p: { score(fs: string[], s: Float64Array): void }, ex: Example, profile: Map<string, CaseClass>, learn?: Perceptron): Label[] {
  const out: Label[] = [];
  const scores = new Float64Array(LABELS.length);
  for (let i = 0; i < ex.tokens.length; i++) {
    const prev = i > 0 ? out[i - 1]! : "O";
    const prev2 = i > 1 ? out[i - 2]! : "O";
    if (!isCandidate(ex.tokens[i]!, profile) && prev === "O") {
      out.push("O");
      continue;
    }
    const fs = features(ex.tokens, i, prev, prev2, profile);
    p.score(fs, scores);
    let best = 0;
    for (let k = 1; k < scores.length; k++) if (scores[k]! > scores[best]!) best = k;
    const truth = LABELS.indexOf(ex.gold[i]!);
    if (learn && best !== truth) learn.update(fs, truth, best);
    out.push(LABELS[best]!);
  }
  return out;
}

function evaluate(p: { score(fs: string[], s: Float64Array): void }, set: Example[], profile: Map<string, CaseClass>): string {
  const c: Record<string, { tp: number; fp: number; fn: number }> = { PERSON: { tp: 0, fp: 0, fn: 0 }, ADDRESS: { tp: 0, fp: 0, fn: 0 } };
  for (const ex of set) {
    const got = pass(p, ex, profile);
    got.forEach((g, i) => {
      const t = ex.gold[i]!;
      if (g !== "O" && g === t) c[g]!.tp++;
      else {
        if (g !== "O") c[g]!.fp++;
        if (t !== "O") c[t]!.fn++;
      }
    });
  }
  return Object.entries(c)
    .map(([k, v]) => `${k} P ${(v.tp / (v.tp + v.fp)).toFixed(3)} R ${(v.tp / (v.tp + v.fn)).toFixed(3)}`)
    .join("  ");
}

const fixed = (m: Map<string, number[]>) => ({ score: (fs: string[], s: Float64Array) => {
  s.fill(0);
  for (const f of fs) { const w = m.get(f); if (w) for (let k = 0; k < s.length; k++) s[k]! += w[k]!; }
} });

// The development split peaks at 3-4 epochs (PERSON recall, ADDRESS precision) and drifts after.
const EPOCHS = Number(process.env.EPOCHS ?? 4);
const profile = caseProfile();
const { train } = splitPresidio(readPresidio());
// A development split inside the training templates, for choosing EPOCHS; the final model trains on all of them.
const devHeld = holdoutTemplates(train);
const dev = train.filter((s) => devHeld.has(s.template_id)).map(toExample);
const fit = train.filter((s) => !devHeld.has(s.template_id)).map(toExample);
const all = train.map(toExample);

function trainOn(set: Example[], report?: Example[]): Map<string, number[]> {
  const p = new Perceptron();
  const rng = new Rng(7);
  const order = set.slice();
  for (let e = 1; e <= EPOCHS; e++) {
    rng.shuffle(order);
    for (const ex of order) pass(p, ex, profile, p);
    if (report) console.log(`epoch ${e}: dev ${evaluate(fixed(p.averaged()), report, profile)}`);
  }
  return p.averaged();
}

console.log(`case profile: ${profile.size} words; fit ${fit.length}, dev ${dev.length}, all training ${all.length} samples`);
trainOn(fit, dev);
const weights = trainOn(all);
// Weights this small change no decision on the development set (checked by re-running the report on the pruned table).
const PRUNE = 0.05;
const kept: Record<string, number[]> = {};
for (const [f, w] of weights) if (w.some((v) => Math.abs(v) >= PRUNE)) kept[f] = w.map((v) => Math.round(v * 100) / 100);
console.log(`features ${weights.size}, kept ${Object.keys(kept).length}; dev with kept weights: ${evaluate(fixed(new Map(Object.entries(kept))), dev, profile)} (dev was trained on here)`);
const l = [...profile].filter(([, c]) => c === "l").map(([w]) => w).sort();
const u = [...profile].filter(([, c]) => c === "u").map(([w]) => w).sort();
writeFileSync(join(OUT, "case-profile.json"), JSON.stringify({ description: "How general English writes each word: l = mostly lower case, u = mostly capitalised (not first in a sentence); from the shared unlabelled corpora", l, u }) + "\n");
writeFileSync(join(OUT, "weights.json"), JSON.stringify({ labels: LABELS, weights: kept }) + "\n");
if (process.env.DUMP) {
  const m = fixed(trainOn(fit));
  const conf = new Map<string, number>();
  for (const ex of dev) {
    const got = pass(m, ex, profile);
    got.forEach((g, i) => { if (g !== ex.gold[i]) { const k = `${ex.gold[i]}->${g} ${ex.tokens[i]!.text}`; conf.set(k, (conf.get(k) ?? 0) + 1); } });
  }
  console.log([...conf].sort((a, b) => b[1] - a[1]).slice(0, 80).map(([k, n]) => `${n} ${k}`).join("\n"));
}
