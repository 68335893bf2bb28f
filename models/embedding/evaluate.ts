import { cosineOfUnit } from "../../src/ml/cosine";
import type { Embedder } from "../../src/ml/types";
import { spearman } from "../data/stats";
import type { ScoredPair } from "../data/sts";
import { stsSplits } from "./build";

export interface EmbeddingMetrics {
  stsbDevSpearman: number;
  /** SemEval 2016 files (never trained on; pairs also in STS-B removed): pairs and Spearman per file. */
  semeval2016: Record<string, { pairs: number; spearman: number }>;
}

async function spearmanOf(embedder: Embedder, pairs: readonly ScoredPair[]): Promise<number> {
  const cos: number[] = [];
  for (const p of pairs) cos.push(cosineOfUnit(await embedder.embed(p.a), await embedder.embed(p.b)));
  return spearman(
    cos,
    pairs.map((p) => p.score),
  );
}

/** Spearman of cosine against gold, measured through the shipped (quantized ONNX) model. */
export async function evaluateEmbedding(embedder: Embedder): Promise<EmbeddingMetrics> {
  const { dev, unseen } = stsSplits();
  const semeval2016: EmbeddingMetrics["semeval2016"] = {};
  for (const source of [...new Set(unseen.map((p) => p.source))].sort()) {
    const pairs = unseen.filter((p) => p.source === source);
    semeval2016[source.replace("semeval/2016/", "")] = { pairs: pairs.length, spearman: await spearmanOf(embedder, pairs) };
  }
  return { stsbDevSpearman: await spearmanOf(embedder, dev), semeval2016 };
}
