import { resolve } from "node:path";
import type { OptimizeInput } from "../../src/pipeline/optimize-types";

/**
 * A source tree's optimizer as a bench drives it: `at` (a module of the tree, by its path in the tree),
 * its settings, its optimize(), and `inputOf`, the input the gateway's inline path gives it for a prompt
 * sent as one user message with `model: "auto"`. Each tree's modules are imported from its own files
 * (bench/lib/measure.ts loadTrees).
 */
export async function treeOptimizer(path: string, dataDir: string) {
  const at = (file: string) => import(resolve(path, file));
  const { loadSettings } = await at("src/config/config.ts");
  const { parseCompletionRequest } = await at("src/http/validate/completion-request.ts");
  const { optimizeInputOf } = await at("src/pipeline/analyze.ts");
  const { RULE_NAMES } = await at("src/pipeline/compress/index.ts");
  const { optimize } = await at("src/pipeline/optimize.ts");
  const settings = loadSettings({ ...process.env, SVC_DATA_DIR: dataDir });
  const inputOf = (prompt: string, available: readonly string[]): OptimizeInput =>
    optimizeInputOf(parseCompletionRequest({ model: "auto", messages: [{ role: "user", content: prompt }] }, RULE_NAMES), available, settings.qualityFloor);
  return { at, settings, optimize, inputOf };
}
