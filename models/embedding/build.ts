import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HashEmbeddingConfig } from "../../src/ml/hash-embedder";
import { loadPromptCorpus } from "../data/corpus";
import { loadSemEval, loadStsBenchmark, pairKey, type ScoredPair } from "../data/sts";
import { embeddingGraph } from "./export";
import { fillerPairs } from "./filler-pairs";
import { trainEmbedding, type EmbeddingTrainConfig } from "./train";

export const EMBEDDING_CONFIG: EmbeddingTrainConfig = {
  seed: 20240601,
  dims: 256,
  features: { buckets: 1 << 15, charNgrams: { min: 3, max: 5 }, charWeight: 1, maxWordLength: 24 },
  epochs: 14,
  batchSize: 32,
  learningRate: 0.001,
  cosentScale: 20,
  decayToInit: 0,
};

/** Self-supervised filler pairs mixed into the STS training pairs (about one in six). */
const FILLER_PAIRS = 3000;

/**
 * The STS splits. Training: STS-B train plus SemEval 2012-2015, minus every pair that also sits in STS-B
 * dev (STS-B was assembled from SemEval, so the overlap is real). Model selection: STS-B dev. SemEval
 * 2016 is never trained on and is reported as unseen data, minus the pairs STS-B train already holds.
 */
export function stsSplits(): { train: ScoredPair[]; dev: ScoredPair[]; unseen: ScoredPair[] } {
  const dev = loadStsBenchmark("dev");
  const stsTrain = loadStsBenchmark("train");
  const devKeys = new Set(dev.map(pairKey));
  const trainKeys = new Set(stsTrain.map(pairKey));
  const train = [...stsTrain, ...loadSemEval([2012, 2013, 2014, 2015]).filter((p) => !devKeys.has(pairKey(p)))];
  const unseen = loadSemEval([2016]).filter((p) => !trainKeys.has(pairKey(p)) && !devKeys.has(pairKey(p)));
  return { train, dev, unseen };
}

/** Train, then write models/embedding/model.onnx and features.json. Returns the dev curve for the model card. */
export function buildEmbedding(outDir: string, log: (line: string) => void): { devCurve: number[]; bestEpoch: number } {
  const { train: sts, dev } = stsSplits();
  const prompts = loadPromptCorpus();
  const train = [...sts, ...fillerPairs(prompts, FILLER_PAIRS, EMBEDDING_CONFIG.seed)];
  // IDF from every unlabelled text we may train on (never STS-B dev or SemEval 2016).
  const idfCorpus = [...prompts, ...sts.flatMap((p) => [p.a, p.b])];
  log(`embedding: ${train.length} training pairs (${FILLER_PAIRS} self-supervised filler pairs), ${dev.length} dev pairs, IDF over ${idfCorpus.length} texts`);
  const trained = trainEmbedding(EMBEDDING_CONFIG, train, dev, idfCorpus, log);
  const config: HashEmbeddingConfig = { dims: trained.dims, features: trained.features };
  writeFileSync(
    join(outDir, "model.onnx"),
    embeddingGraph(trained.table, trained.dims, { seed: String(EMBEDDING_CONFIG.seed), best_epoch: String(trained.bestEpoch) }),
  );
  writeFileSync(join(outDir, "features.json"), `${JSON.stringify(config, null, 2)}\n`);
  return { devCurve: trained.devCurve, bestEpoch: trained.bestEpoch };
}
