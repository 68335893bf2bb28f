import profileFile from "./models/pii-ner/case-profile.json";
import namesFile from "./models/pii-ner/names.json";
import weightsFile from "./models/pii-ner/weights.json";
import { FEATURE_BITS, LABELS, makeLexicon, features, lexCode, type CaseClass } from "./src/pipeline/pii/tagger/features";
import { tableScorer } from "./src/pipeline/pii/tagger/tagger";
import { tokenize } from "./src/pipeline/pii/tagger/tokens";
const cases = new Map(Object.entries(profileFile.words as Record<string, CaseClass>));
const table = new Float32Array((1 << FEATURE_BITS) * 3);
const flat = weightsFile.slots as number[];
for (let i = 0; i < flat.length; i += 4) for (let k = 0; k < 3; k++) table[flat[i]! * 3 + k] = flat[i + 1 + k]!;
const lex = makeLexicon(cases, namesFile.names);
const sc = tableScorer(table);
for (const text of process.argv.slice(2)) {
  const toks = tokenize(text);
  const slots = new Int32Array(26); const scores = new Float64Array(3);
  let prev = 0, prev2 = 0;
  for (let i = 0; i < toks.length; i++) {
    const n = features(toks, i, prev, prev2, lex, slots);
    sc.score(slots, n, scores);
    const contrib = Array.from(slots.subarray(0, n), (s) => (table[s * 3 + 1]! - table[s * 3]!).toFixed(1));
    let best = 0; for (let k = 1; k < 3; k++) if (scores[k]! > scores[best]!) best = k;
    console.log(toks.text(i).padEnd(12), lexCode(toks, i, lex).toString(2).padStart(9), Array.from(scores, (x) => x.toFixed(1)).join(" "), contrib.join(" "));
    prev2 = prev; prev = best;
  }
}
