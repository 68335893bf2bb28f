import type { Settings } from "../config/config";
import { Catalog } from "../catalog/catalog";
import { modelOptionsOf } from "../ml/load";
import { loadModels, type Models } from "./models";
import type { OptimizerDeps } from "./optimize";
import { loadCapabilities } from "./route";
import { loadVocabularies } from "../tokens/count";

/** What the rule-only stages need (token counting and routing without a classifier): cheap, no models. */
export function ruleDeps(settings: Pick<Settings, "modelsFile" | "capabilitiesFile">): OptimizerDeps {
  return { catalog: Catalog.load(settings.modelsFile), capabilities: loadCapabilities(settings.capabilitiesFile) };
}

/**
 * Everything the optimizer needs, the three models and the o200k vocabulary included (the optimizer
 * counts in o200k whatever the provider; see svc_meta's token fields); loaded once per worker thread,
 * which also extracts the cache's facets (see OptimizerDeps.extractsFacets).
 */
export async function loadOptimizerDeps(settings: Pick<Settings, "modelsFile" | "capabilitiesFile" | "embeddingModelDir">): Promise<OptimizerDeps> {
  loadVocabularies(["o200k"]);
  return { ...optimizerDeps(settings, await loadModels(undefined, modelOptionsOf(settings))), extractsFacets: true };
}

/** The optimizer's needs around models already loaded: the event loop's, which leave the cache's facets to the cache. */
export function optimizerDeps(settings: Pick<Settings, "modelsFile" | "capabilitiesFile">, models: Models): OptimizerDeps {
  return {
    ...ruleDeps(settings),
    models: {
      embed: (text) => models.embed(text),
      embedBatch: (texts) => models.embedBatch(texts),
      classify: (text, embedding) => models.classify(text, embedding),
      quality: async (original, compressed) => (await models.quality(original, compressed)).score,
    },
  };
}
