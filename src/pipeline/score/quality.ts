import { calibratedScore, type RequestCalibration } from "./calibration";
import type { LostContent } from "./meaning-checks";
import { hardChecks, requestFeatures, type RequestFeatures } from "./request-features";

/** The quality of a compression: one 0-100 figure and what it is made of. */
export interface QualityScore {
  /** 0-100 (integer): how likely the compressed prompt asks for the same thing (100 when unchanged). */
  score: number;
  /** What changed in the request, as weighed. */
  features: RequestFeatures;
  /** Content of the original missing from the compressed text, per check. */
  lost: LostContent;
}

/**
 * Scores compressions against their originals by what changed in the request (issue 25): social
 * sentences and framing words weigh nothing, a lost number, negation, entity, data span, format or
 * content word weighs nearly everything. No embedding: the words both texts share cancel, and what is
 * left is weighed by the calibration. Replaced an STS-calibrated embedding cosine that read "the
 * greeting is gone" as a change of meaning (the README's haiku request scored 76, under the floor of
 * 85) and a proofreading text stripped of its articles as unchanged (99).
 */
export class QualityScorer {
  constructor(private readonly calibration: RequestCalibration) {}

  score(original: string, compressed: string): QualityScore {
    const lost = hardChecks(original, compressed);
    const features = requestFeatures(original, compressed, lost);
    return { score: original === compressed ? 100 : Math.round(calibratedScore(features, this.calibration)), features, lost };
  }
}
