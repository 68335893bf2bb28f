import namesFile from "../../../../models/pii-ner/names.json";
import weightsFile from "../../../../models/pii-ner/weights.json";
import { caseProfile } from "../../../text/case-profile";
import { FEATURE_BITS, LABELS, makeLexicon } from "./features";
import { tagSpans, tableScorer, type TaggedSpan, type TaggerModel } from "./tagger";

/** The shipped tagger (models/pii-ner, trained by models/pii-ner/train.ts; see its MODEL_CARD.md). */
function loadShipped(): TaggerModel {
  // The file keeps the non-zero slots only: [slot, w_O, w_PERSON, w_ADDRESS, slot, ...].
  const table = new Float32Array((1 << FEATURE_BITS) * LABELS.length);
  const flat = weightsFile.slots as number[];
  for (let i = 0; i < flat.length; i += 1 + LABELS.length) {
    for (let k = 0; k < LABELS.length; k++) table[flat[i]! * LABELS.length + k] = flat[i + 1 + k]!;
  }
  return { scorer: tableScorer(table), lex: makeLexicon(caseProfile(), namesFile.names) };
}

let shipped: TaggerModel | undefined;

/** The shipped model's spans of `text`. */
export function shippedTagSpans(text: string): TaggedSpan[] {
  shipped ??= loadShipped();
  return tagSpans(shipped, text);
}
