import { describe, expect, test } from "bun:test";
import { readPresidio, splitPresidio } from "../../models/pii-ner/data";
import { precision, recall, scoreWords } from "../../models/pii-ner/score";
import { detectPii } from "../../src/pipeline/pii/detect";
import { requires } from "../support/services";

const haveShared = await requires("shared");

/**
 * The shipped detectors on the hold-out templates of presidio-synth-pii, scored per word as
 * bench/pii-eval.ts scores them: a retrain or a rule change that loses what the model card publishes
 * fails here. The floors are the published figures (models/pii-ner/MODEL_CARD.md) less 0.005; the
 * validated types keep the 0.99. PERSON and ADDRESS moved with the retrain on the texts of
 * models/pii-ner/written-world.ts (issue 30's fresh-set misses): PERSON from P 0.847 R 0.832 to P 0.829
 * R 0.871 (published 0.848 / 0.840 -> 0.834 / 0.876), ADDRESS from P 0.947 R 0.839 to P 0.942 R 0.830
 * (0.958 / 0.842 -> 0.947 / 0.835), for PERSON 0.823 / 0.712 -> 0.971 / 0.892 and ADDRESS 0.928 / 0.481
 * -> 1.000 / 0.947 on the new-style development set (test/pii/newstyle.test.ts). Issue 30's second
 * round (written-world.ts's chat-export, minutes and word-like-name frames, six seeds, person offset +2,
 * titles of other languages): PERSON to P 0.899 R 0.883 (published 0.834 / 0.876 -> 0.904 / 0.888);
 * ADDRESS recall LOOSENED 0.830 -> 0.811 (published 0.835 -> 0.816: the retrain's address recall on
 * the hold-out fell with the new frames, none of which holds an address), for PERSON 0.554 / 0.486 ->
 * 0.645 / 0.541 on the second new-style development set (bench/data/pii-newstyle-dev2.txt). Issue 30's
 * third round (completion rules only, the same weights): PERSON precision LOOSENED 0.899 -> 0.890
 * (published 0.904 -> 0.896, recall 0.888 the same: the rules for initials, greetings, action items and
 * role titles took about three words of the hold-out for names; which was never printed), for PERSON
 * 0.645 / 0.541 -> 0.746 / 0.635 on the second new-style development set and 0.803 / 0.743 -> 0.854 /
 * 0.791 on the third (bench/data/pii-newstyle-dev3.txt). Issue 30's ninth round (a person's span takes in
 * the titles before it, tagger.ts titledStart; the same weights): PERSON precision LOOSENED 0.890 -> 0.865
 * and recall TIGHTENED 0.883 -> 0.893 (published 0.904 / 0.891 -> 0.871 / 0.899): the hold-out holds all 13
 * titles presidio marks PREFIX, now false person words, while 96 of the data set's 109 titles before a
 * name are PERSON.
 */
const FLOORS: Record<string, [number, number]> = {
  EMAIL: [0.99, 0.99],
  CARD: [0.99, 0.99],
  IBAN: [0.99, 0.99],
  SSN: [0.99, 0.99],
  IP: [0.99, 0.99],
  PHONE: [0.98, 0.99],
  PERSON: [0.865, 0.893],
  ADDRESS: [0.942, 0.811],
};

describe.skipIf(!haveShared)("PII detection quality on the hold-out templates (../shared/data)", () => {
  const counts = haveShared ? scoreWords(splitPresidio(readPresidio()).holdout, Object.keys(FLOORS), (t) => detectPii(t)) : {};
  for (const [type, [p, r]] of Object.entries(FLOORS)) {
    test(`${type}: precision >= ${p}, recall >= ${r}`, () => {
      expect(precision(counts[type]!)).toBeGreaterThanOrEqual(p);
      expect(recall(counts[type]!)).toBeGreaterThanOrEqual(r);
    });
  }
});
