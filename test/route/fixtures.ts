import bundledModels from "../../src/catalog/models.json";
import { Catalog, type CatalogFile, type ModelInfo } from "../../src/catalog/catalog";
import { TASK_CLASSES, type TaskClass, type TaskPrediction } from "../../src/ml/types";
import type { PromptSignals } from "../../src/pipeline/route";

/** A prediction whose top class holds `confidence` and whose remaining mass is spread as `rest` says (or evenly). */
export function prediction(task: TaskClass, confidence: number, difficulty: number, rest: Partial<Record<TaskClass, number>> = {}): TaskPrediction {
  const probs = Object.fromEntries(TASK_CLASSES.map((c) => [c, 0])) as Record<TaskClass, number>;
  probs[task] = confidence;
  const given = Object.values(rest).reduce((a, b) => a + b, 0);
  if (given > 0) Object.assign(probs, rest);
  else for (const c of TASK_CLASSES) if (c !== task) probs[c] = (1 - confidence) / (TASK_CLASSES.length - 1);
  return { task, probs, confidence, difficulty };
}

export function signals(over: Partial<PromptSignals> = {}): PromptSignals {
  return {
    promptTokens: 200,
    maxCompletionTokens: 1000,
    userTurns: 1,
    codeFences: 0,
    script: "latin",
    needsTools: false,
    needsJson: false,
    needsJsonSchema: false,
    needsVision: false,
    hardness: { constraints: 0, steps: 0, requestedWords: 0, deliberation: 0, calculation: 0 },
    smallTalk: false,
    pastedCode: false,
    softwareShare: 0,
    estimation: false,
    ...over,
  };
}

/** The bundled catalog with some models' feature lists replaced. */
export function catalogWithFeatures(features: Record<string, string[]>): Catalog {
  const file = structuredClone(bundledModels) as CatalogFile;
  for (const m of file.models) if (features[m.id]) m.features = features[m.id]!;
  return new Catalog(file);
}

export const all = () => true;
export const only =
  (...providers: string[]) =>
  (m: ModelInfo) =>
    providers.includes(m.provider);
export const ids = (models: readonly ModelInfo[]) => models.map((m) => m.id);
