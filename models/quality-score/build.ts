import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cosineOfUnit } from "../../src/ml/cosine";
import { HashEmbedder } from "../../src/ml/hash-embedder";
import type { SimilarityCalibration } from "../../src/pipeline/score/calibration";
import { stsSplits } from "../embedding/build";

/** Pool-adjacent-violators: the non-decreasing fit of ys (in x order) minimizing squared error. */
function isotonic(ys: number[]): number[] {
  const blocks: { sum: number; n: number }[] = [];
  for (const y of ys) {
    blocks.push({ sum: y, n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.sum / blocks[blocks.length - 2]!.n > blocks[blocks.length - 1]!.sum / blocks[blocks.length - 1]!.n) {
      const last = blocks.pop()!;
      blocks[blocks.length - 1]!.sum += last.sum;
      blocks[blocks.length - 1]!.n += last.n;
    }
  }
  return blocks.flatMap((b) => Array<number>(b.n).fill(b.sum / b.n));
}

async function cosines(embedder: HashEmbedder, pairs: { a: string; b: string }[]): Promise<number[]> {
  const out: number[] = [];
  for (const p of pairs) {
    out.push(cosineOfUnit(await embedder.embed(p.a), await embedder.embed(p.b)));
  }
  return out;
}

/**
 * Fit cosine -> 100 * gold / 5 on the embedding's training pairs with the shipped embedding model, kept
 * as knots at every 5% quantile of cosine plus the cosine 1.0 end (an unchanged text scores 100).
 */
export async function buildQualityCalibration(embeddingDir: string, outDir: string, log: (line: string) => void): Promise<SimilarityCalibration> {
  const embedder = await HashEmbedder.load(embeddingDir);
  const { train } = stsSplits();
  const cos = await cosines(embedder, train);
  const order = cos.map((_, i) => i).sort((a, b) => cos[a]! - cos[b]!);
  const fitted = isotonic(order.map((i) => (100 * train[i]!.score) / 5));
  const knots: SimilarityCalibration = { cosine: [], score: [] };
  for (let q = 0; q <= 20; q++) {
    const at = Math.min(order.length - 1, Math.round((q / 20) * (order.length - 1)));
    const c = Number(cos[order[at]!]!.toFixed(4));
    const s = Number(fitted[at]!.toFixed(2));
    if (knots.cosine.length > 0 && c <= knots.cosine[knots.cosine.length - 1]!) continue;
    knots.cosine.push(c);
    knots.score.push(Math.max(s, knots.score[knots.score.length - 1] ?? 0));
  }
  if (knots.cosine[knots.cosine.length - 1]! < 1) {
    knots.cosine.push(1);
    knots.score.push(100);
  }
  log(`quality calibration: ${knots.cosine.length} knots from ${train.length} pairs`);
  writeFileSync(join(outDir, "calibration.json"), `${JSON.stringify(knots, null, 2)}\n`);
  return knots;
}
