/**
 * Trains the person-name and street-address tagger (an averaged perceptron over word, shape, case and
 * context-word features; see MODEL_CARD.md).
 * Run: bun models/pii-ner/train.ts   (reads ../shared/data, writes models/pii-ner/{case-profile,names,weights}.json)
 *
 * Training data: the non-held-out templates of presidio-synth-pii (models/pii-ner/data.ts), of
 * which a fifth of the templates is kept back again as a development set to pick the epoch count.
 * The case profile (how general English writes each word) comes from the unlabelled English corpora
 * the word statistics use. No other data, no pretrained weights.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { LABELS, type CaseClass, type CaseProfile, type Label, type Lexicon } from "../../src/pipeline/pii/tagger/features";
import { NEVER_PERSON, tagTokens, weightScorer, type Scorer } from "../../src/pipeline/pii/tagger/tagger";
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
  /** The word lists this example is tagged with: its names come from other folds (see withNames). */
  lex: Lexicon;
}

function toExample(s: PresidioSample, lex: Lexicon): Example {
  const tokens = tokenize(s.full_text);
  const gold = tokens.map((t): Label => {
    for (const span of s.spans) {
      if (t.start < span.end_position && t.end > span.start_position) {
        // Titles are labelled PERSON in some templates and PREFIX in others; the tagger never calls them PERSON.
        if (span.entity_type === "PERSON") return NEVER_PERSON.has(t.lower) ? "O" : "PERSON";
        if (span.entity_type === "ADDRESS") return "ADDRESS";
      }
    }
    return "O";
  });
  return { tokens, gold, lex };
}

/** Lower-cased words of the PERSON spans of `samples` (titles excepted). */
function namesOf(samples: readonly PresidioSample[]): Set<string> {
  const names = new Set<string>();
  for (const s of samples) for (const span of s.spans) {
    if (span.entity_type !== "PERSON") continue;
    for (const t of tokenize(span.entity_value)) if (!NEVER_PERSON.has(t.lower)) names.add(t.lower);
  }
  return names;
}

/**
 * Examples whose name list holds only names from the other folds (by template), as an unseen text's
 * names are only partly in the shipped list. With its own names in the list, the name feature would
 * be on for every training name and the tagger would learn to find nothing else.
 */
function withNames(samples: readonly PresidioSample[], cases: CaseProfile, folds = 5): Example[] {
  const fold = (s: PresidioSample) => (Math.imul(s.template_id + 17, 2246822519) >>> 0) % folds;
  const out: Example[] = [];
  for (let k = 0; k < folds; k++) {
    const lex = { cases, names: namesOf(samples.filter((s) => fold(s) !== k)) };
    for (const s of samples) if (fold(s) === k) out.push(toExample(s, lex));
  }
  return out;
}

class Perceptron {
  readonly w = new Map<string, Float64Array>();
  private readonly total = new Map<string, Float64Array>();
  private readonly stamp = new Map<string, Float64Array>();
  private step = 0;

  score(fs: readonly string[], scores: Float64Array): void {
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

/** The tagger's own loop; with `learn`, an update on each wrong label (its own earlier labels as history, as at inference). */
function pass(scorer: Scorer, ex: Example, learn?: Perceptron): Label[] {
  return tagTokens(scorer, ex.lex, ex.tokens, learn && ((fs, i, label) => {
    if (label !== ex.gold[i]) learn.update(fs, LABELS.indexOf(ex.gold[i]!), LABELS.indexOf(label));
  }));
}

function evaluate(p: Scorer, set: Example[]): string {
  const c: Record<string, { tp: number; fp: number; fn: number }> = { PERSON: { tp: 0, fp: 0, fn: 0 }, ADDRESS: { tp: 0, fp: 0, fn: 0 } };
  for (const ex of set) {
    const got = pass(p, ex);
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

const fixed = (m: Map<string, number[]>) => weightScorer(m);

const EPOCHS = Number(process.env.EPOCHS ?? 4);
const profile = caseProfile();
const { train } = splitPresidio(readPresidio());
// A development split inside the training templates, for choosing EPOCHS; the final model trains on all of them.
const devHeld = holdoutTemplates(train);
const fitSamples = train.filter((s) => !devHeld.has(s.template_id));
const fitNames = namesOf(fitSamples);
// The development set is tagged as unseen text is: with the names of the samples trained on.
const dev = train.filter((s) => devHeld.has(s.template_id)).map((s) => toExample(s, { cases: profile, names: fitNames }));
const fit = withNames(fitSamples, profile);
const all = withNames(train, profile);

function trainOn(set: Example[], report?: Example[]): Map<string, number[]> {
  const p = new Perceptron();
  const rng = new Rng(7);
  const order = set.slice();
  for (let e = 1; e <= EPOCHS; e++) {
    rng.shuffle(order);
    for (const ex of order) pass(p, ex, p);
    if (report) console.log(`epoch ${e}: dev ${evaluate(fixed(p.averaged()), report)}`);
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
console.log(`features ${weights.size}, kept ${Object.keys(kept).length}; dev with kept weights: ${evaluate(fixed(new Map(Object.entries(kept))), dev)} (dev was trained on here)`);
const l = [...profile].filter(([, c]) => c === "l").map(([w]) => w).sort();
const u = [...profile].filter(([, c]) => c === "u").map(([w]) => w).sort();
writeFileSync(join(OUT, "case-profile.json"), JSON.stringify({ description: "How general English writes each word: l = mostly lower case, u = mostly capitalised (not first in a sentence); from the shared unlabelled corpora", l, u }) + "\n");
writeFileSync(join(OUT, "names.json"), JSON.stringify({ description: "Lower-cased words of the PERSON spans of the training templates of presidio-synth-pii (Faker-made names, no real person's data)", names: [...namesOf(train)].sort() }) + "\n");
writeFileSync(join(OUT, "weights.json"), JSON.stringify({ labels: LABELS, weights: kept }) + "\n");
if (process.env.DUMP) {
  const m = fixed(trainOn(fit));
  const conf = new Map<string, number>();
  for (const ex of dev) {
    const got = pass(m, ex);
    got.forEach((g, i) => { if (g !== ex.gold[i]) { const k = `${ex.gold[i]}->${g} ${ex.tokens[i]!.text}`; conf.set(k, (conf.get(k) ?? 0) + 1); } });
  }
  console.log([...conf].sort((a, b) => b[1] - a[1]).slice(0, 80).map(([k, n]) => `${n} ${k}`).join("\n"));
}
