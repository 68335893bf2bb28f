import profileFile from "../../../../models/pii-ner/case-profile.json";
import namesFile from "../../../../models/pii-ner/names.json";
import weightsFile from "../../../../models/pii-ner/weights.json";
import type { CaseClass } from "./features";
import { tagSpans, weightScorer, type TaggedSpan, type TaggerModel } from "./tagger";

/** The shipped tagger (models/pii-ner, trained by models/pii-ner/train.ts; see its MODEL_CARD.md). */
function loadShipped(): TaggerModel {
  const cases = new Map(Object.entries(profileFile.words as Record<string, CaseClass>));
  const weights = new Map<string, Float64Array>();
  for (const [f, w] of Object.entries(weightsFile.weights as Record<string, number[]>)) weights.set(f, Float64Array.from(w));
  return { scorer: weightScorer(weights), lex: { cases, names: new Set(namesFile.names) } };
}

let shipped: TaggerModel | undefined;
let lastText: string | undefined;
let lastSpans: TaggedSpan[] = [];

/**
 * The shipped model's spans of `text`. The person and the address detector both read them; the
 * last text's result is kept so one text is tagged once, not once per detector.
 */
export function shippedTagSpans(text: string): TaggedSpan[] {
  if (text === lastText) return lastSpans;
  shipped ??= loadShipped();
  lastSpans = tagSpans(shipped, text);
  lastText = text;
  return lastSpans;
}
