import { cosineOfUnit } from "../../ml/cosine";
import type { Embedder } from "../../ml/types";

/** An embedder that can also embed two texts in one call (the shipped HashEmbedder). */
export interface PairEmbedder extends Embedder {
  embedPair(a: string, b: string): Promise<[Float32Array, Float32Array]>;
}
import { calibratedScore, type SimilarityCalibration } from "./calibration";
import { CHECK_NAMES, meaningChecks, type LostContent } from "./meaning-checks";

/** The quality of a compression: one 0-100 figure and what it is made of. */
export interface QualityScore {
  /** 0-100 (integer): the calibrated similarity, capped by what the hard checks found lost. */
  score: number;
  /** Cosine of the two embeddings, -1..1. */
  similarity: number;
  /** The similarity on the 0-100 STS-calibrated scale, before the checks. */
  semanticScore: number;
  /** Content of the original missing from the compressed text, per check. */
  lost: LostContent;
}

/**
 * Points taken off the ceiling per lost item. Any single loss lands below 70, the line under which
 * a compression counts as a change of meaning; a negation flips meaning outright, so it costs most.
 */
export const LOSS_PENALTY: Record<keyof LostContent, number> = {
  negations: 50,
  numbers: 40,
  codeSpans: 40,
  entities: 35,
  urls: 35,
  quotes: 35,
};

/**
 * Scores compressions against their originals. Remembers the last original's embedding: the compressor
 * tries several candidates against one original, and that embedding is half the cost of each score.
 * A new original is embedded together with its first candidate, in one model call.
 */
export class QualityScorer {
  private lastOriginal?: { text: string; vector: Promise<Float32Array> };

  constructor(
    private readonly embedder: PairEmbedder,
    private readonly calibration: SimilarityCalibration,
  ) {}

  private async embedBoth(original: string, compressed: string): Promise<[Float32Array, Float32Array]> {
    if (this.lastOriginal?.text === original) return [await this.lastOriginal.vector, await this.embedder.embed(compressed)];
    const pair = this.embedder.embedPair(original, compressed);
    this.lastOriginal = { text: original, vector: pair.then(([o]) => o) };
    return pair;
  }

  async score(original: string, compressed: string): Promise<QualityScore> {
    const lost = meaningChecks(original, compressed);
    const similarity = original === compressed ? 1 : cosineOfUnit(...(await this.embedBoth(original, compressed)));
    const semanticScore = original === compressed ? 100 : calibratedScore(similarity, this.calibration);
    let ceiling = 100;
    for (const check of CHECK_NAMES) ceiling -= LOSS_PENALTY[check] * lost[check].length;
    return { score: Math.round(Math.max(0, Math.min(semanticScore, ceiling))), similarity, semanticScore, lost };
  }
}
