import { features, isCandidate, LABELS, type CaseProfile, type Label } from "./features";
import { tokenize, type Token } from "./tokens";

/** A trained tagger: per feature, one weight per label (LABELS order). */
export interface TaggerModel {
  weights: ReadonlyMap<string, ArrayLike<number>>;
  profile: CaseProfile;
}

/** One label per token, chosen left to right (the two labels before are features of the next). */
export function tagTokens(model: TaggerModel, tokens: readonly Token[]): Label[] {
  const labels: Label[] = new Array(tokens.length);
  const scores = new Float64Array(LABELS.length);
  for (let i = 0; i < tokens.length; i++) {
    const prev = i > 0 ? labels[i - 1]! : "O";
    const prev2 = i > 1 ? labels[i - 2]! : "O";
    // A token next to a labelled one is scored even if common, so "Rua das Flores" and "van der Berg"
    // keep their small words.
    if (!isCandidate(tokens[i]!, model.profile) && prev === "O") {
      labels[i] = "O";
      continue;
    }
    scores.fill(0);
    for (const f of features(tokens, i, prev, prev2, model.profile)) {
      const w = model.weights.get(f);
      if (w === undefined) continue;
      for (let k = 0; k < scores.length; k++) scores[k]! += w[k]!;
    }
    let best = 0;
    for (let k = 1; k < scores.length; k++) if (scores[k]! > scores[best]!) best = k;
    labels[i] = LABELS[best]!;
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
  const labels = tagTokens(model, tokens);
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
