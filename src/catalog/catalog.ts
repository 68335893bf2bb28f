import { readFileSync } from "node:fs";
import bundledModels from "./models.json";
import { ApiError } from "../core/errors";

export type Tier = "cheapest" | "balanced" | "most_capable";
export const TIERS: readonly Tier[] = ["cheapest", "balanced", "most_capable"];
export type ProviderName = "anthropic" | "openai" | "gemini" | "openai_compatible";

export interface ModelInfo {
  id: string;
  aliases: string[];
  label: string;
  provider: ProviderName;
  tier: Tier;
  input_usd_per_mtok: number;
  output_usd_per_mtok: number;
  context_window: number;
  features: string[];
}

export interface CatalogFile {
  baseline_model: string;
  default_model: string;
  models: ModelInfo[];
}

/**
 * The price and capability list of every model the gateway can serve. Operators edit a copy of
 * models.json and point SVC_MODELS_FILE at it, so prices change without a release.
 */
export class Catalog {
  private readonly byName = new Map<string, ModelInfo>();
  readonly models: readonly ModelInfo[];
  readonly baseline: ModelInfo;
  readonly defaultModel: ModelInfo;

  constructor(file: CatalogFile) {
    this.models = file.models;
    for (const m of file.models) {
      this.byName.set(m.id, m);
      for (const a of m.aliases) this.byName.set(a, m);
    }
    this.baseline = this.mustFind(file.baseline_model, "baseline_model");
    this.defaultModel = this.mustFind(file.default_model, "default_model");
  }

  static load(path?: string): Catalog {
    const file = path ? (JSON.parse(readFileSync(path, "utf8")) as CatalogFile) : (bundledModels as CatalogFile);
    return new Catalog(file);
  }

  find(name: string): ModelInfo | undefined {
    return this.byName.get(name);
  }

  /** Resolves a requested id or alias, or answers 400 MODEL_NOT_FOUND. */
  resolve(name: string): ModelInfo {
    const m = this.byName.get(name);
    if (!m) throw new ApiError("MODEL_NOT_FOUND", `model '${name}' is not served here; GET /v1/models lists the models`, { param: "model" });
    return m;
  }

  /** USD for a call: prompt tokens at the input price, completion tokens at the output price. */
  cost(model: ModelInfo, promptTokens: number, completionTokens: number): number {
    return (promptTokens * model.input_usd_per_mtok + completionTokens * model.output_usd_per_mtok) / 1_000_000;
  }

  private mustFind(name: string, field: string): ModelInfo {
    const m = this.byName.get(name);
    if (!m) throw new Error(`models file: ${field} '${name}' is not one of the listed models`);
    return m;
  }
}
