import { features, isCandidate, LABELS, type Label, type Lexicon } from "./features";
import { tokenize, type Token } from "./tokens";

/**
 * Words that are never part of a person's name though they sit next to one: titles (presidio labels
 * them PREFIX, not PERSON; they identify nobody) and days of the week.
 */
export const NEVER_PERSON: ReadonlySet<string> = new Set(["mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam", "mx", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]);
const PERSON = LABELS.indexOf("PERSON");

/** Adds each feature's weights into `scores` (one slot per label, LABELS order). */
export interface Scorer {
  score(features: readonly string[], scores: Float64Array): void;
}

/** A trained tagger and the word lists its features read. */
export interface TaggerModel {
  scorer: Scorer;
  lex: Lexicon;
}

export function weightScorer(weights: ReadonlyMap<string, ArrayLike<number>>): Scorer {
  return {
    score(fs, scores) {
      scores.fill(0);
      for (const f of fs) {
        const w = weights.get(f);
        if (w === undefined) continue;
        for (let k = 0; k < scores.length; k++) scores[k]! += w[k]!;
      }
    },
  };
}

/**
 * One label per token, chosen left to right (the two labels before are features of the next).
 * Training runs the same loop, with `visit` told each scored token's features and label.
 */
export function tagTokens(
  scorer: Scorer,
  lex: Lexicon,
  tokens: readonly Token[],
  visit?: (features: string[], index: number, label: Label) => void,
): Label[] {
  const labels: Label[] = new Array(tokens.length);
  const scores = new Float64Array(LABELS.length);
  for (let i = 0; i < tokens.length; i++) {
    const prev = i > 0 ? labels[i - 1]! : "O";
    const prev2 = i > 1 ? labels[i - 2]! : "O";
    // A token next to a labelled one is scored even if common, so "Rua das Flores" and "van der Berg"
    // keep their small words.
    if (!isCandidate(tokens[i]!, lex) && prev === "O") {
      labels[i] = "O";
      continue;
    }
    const fs = features(tokens, i, prev, prev2, lex);
    scorer.score(fs, scores);
    if (NEVER_PERSON.has(tokens[i]!.lower)) scores[PERSON] = -Infinity;
    let best = 0;
    for (let k = 1; k < scores.length; k++) if (scores[k]! > scores[best]!) best = k;
    labels[i] = LABELS[best]!;
    visit?.(fs, i, LABELS[best]!);
  }
  return labels;
}

export interface TaggedSpan {
  label: Exclude<Label, "O">;
  start: number;
  end: number;
}

/**
 * Runs of tokens with the same label become one span. A person's name does not run across a line
 * break or a full stop ("... John. Mary ..."); an address does (its lines are one address).
 */
export function tagSpans(model: TaggerModel, text: string): TaggedSpan[] {
  const tokens = tokenize(text);
  const labels = tagTokens(model.scorer, model.lex, tokens);
  const spans: TaggedSpan[] = [];
  let open: TaggedSpan | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const label = labels[i]!;
    const t = tokens[i]!;
    if (label === "O") {
      open = undefined;
      continue;
    }
    const joins = open !== undefined && open.label === label && (label === "ADDRESS" || t.gap === "space" || t.gap === "other");
    if (joins) open!.end = t.end;
    else {
      open = { label, start: t.start, end: t.end };
      spans.push(open);
    }
  }
  return spans;
}
