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
 * validated types keep the 0.99.
 */
const FLOORS: Record<string, [number, number]> = {
  EMAIL: [0.99, 0.99],
  CARD: [0.99, 0.99],
  IBAN: [0.99, 0.99],
  SSN: [0.99, 0.99],
  IP: [0.99, 0.99],
  PHONE: [0.98, 0.99],
  PERSON: [0.847, 0.832],
  ADDRESS: [0.947, 0.839],
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
