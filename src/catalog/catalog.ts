import { readFileSync } from "node:fs";
import bundledModels from "./models.json";
import { ApiError } from "../core/errors";

export type Tier = "cheapest" | "balanced" | "most_capable";
export const TIERS: readonly Tier[] = ["cheapest", "balanced", "most_capable"];
/** "svc": svc's own models, run in process (the embedding model); no provider is configured for it. */
export type ProviderName = "anthropic" | "openai" | "gemini" | "openai_compatible" | "svc";
const PROVIDERS: readonly ProviderName[] = ["anthropic", "openai", "gemini", "openai_compatible"];

/** What a model can do; routing and the adapters read these names. */
export type Feature = "tools" | "vision" | "json" | "json_schema" | "reasoning" | "embeddings";

export interface ModelInfo {
  id: string;
  aliases: string[];
  label?: string;
  provider: ProviderName;
  /** Only tiered models are routing candidates; others are served when a client names them. */
  tier?: Tier;
  /** USD per 1M tokens; null for a model the catalog does not list (its cost is unknown, never guessed). */
  input_usd_per_mtok: number | null;
  output_usd_per_mtok: number | null;
  /** Prompt-cache reads (OpenAI cached input, Anthropic cache read, Gemini context cache). */
  cached_input_usd_per_mtok?: number;
  /** Anthropic prompt-cache writes. */
  cache_write_usd_per_mtok?: number;
  /** Tokens; null when unknown (an unlisted model). */
  context_window: number | null;
  features: string[];
  /** False for a model served by name without a catalog entry. */
  listed?: boolean;
}

/** A listed model that routing may pick: it has a tier, prices and a context window. */
export type RoutableModel = ModelInfo & { tier: Tier; input_usd_per_mtok: number; output_usd_per_mtok: number; context_window: number };

export interface CatalogFile {
  baseline_model: string;
  default_model: string;
  /** The name under which POST /v1/embeddings serves svc's own embedding model. */
  embedding_model?: string;
  models: ModelInfo[];
}

/**
 * Model ids each provider serves that the catalog may not list yet, so a client can name any model its
 * provider offers today ("gpt-5", "claude-opus-4-5", "gemini-3-pro"). An explicit `provider/` prefix
 * works for any other name ("openai_compatible/llama3.1:8b").
 */
const ID_PATTERNS: readonly [RegExp, ProviderName][] = [
  [/^(gpt-|chatgpt-|o\d(-|$)|text-embedding-|davinci|babbage|omni-moderation)/, "openai"],
  [/^claude-/, "anthropic"],
  [/^(gemini-|gemma-|text-embedding-0|embedding-0)/, "gemini"],
];

/** Unlisted models remembered, so a server answering many distinct names cannot grow without bound. */
const MAX_UNLISTED = 1000;

/**
 * The price and capability list of every model the gateway can serve. Operators edit a copy of
 * models.json and point SVC_MODELS_FILE at it, so prices change without a release.
 */
export class Catalog {
  private readonly byName = new Map<string, ModelInfo>();
  private readonly unlisted = new Map<string, ModelInfo>();
  readonly models: readonly ModelInfo[];
  /** The models routing chooses among: listed with a tier. */
  readonly routable: readonly RoutableModel[];
  readonly baseline: ModelInfo;
  readonly defaultModel: ModelInfo;
  readonly embeddingModel: string;
  /** svc's own embedding model as a model: what /v1/embeddings is recorded under when svc serves it (free: it runs here). */
  readonly ownEmbedding: ModelInfo;

  constructor(file: CatalogFile) {
    this.models = file.models.map((m) => ({ ...m, listed: true }));
    for (const m of this.models) {
      this.byName.set(m.id, m);
      for (const a of m.aliases) this.byName.set(a, m);
      if (m.tier && (m.input_usd_per_mtok === null || m.output_usd_per_mtok === null || m.context_window === null)) {
        throw new Error(`models file: '${m.id}' has a tier, so it needs prices and a context window`);
      }
    }
    this.routable = this.models.filter((m): m is RoutableModel => m.tier !== undefined);
    this.baseline = this.mustFind(file.baseline_model, "baseline_model");
    this.defaultModel = this.mustFind(file.default_model, "default_model");
    this.embeddingModel = file.embedding_model ?? "svc-embed-1";
    this.ownEmbedding = {
      id: this.embeddingModel,
      aliases: [],
      provider: "svc",
      input_usd_per_mtok: 0,
      output_usd_per_mtok: 0,
      context_window: null,
      features: ["embeddings"],
      listed: true,
    };
  }

  static load(path?: string): Catalog {
    const file = path ? (JSON.parse(readFileSync(path, "utf8")) as CatalogFile) : (bundledModels as CatalogFile);
    return new Catalog(file);
  }

  /** A listed model by id or alias, else a model a provider serves by that name (see ID_PATTERNS). */
  find(name: string): ModelInfo | undefined {
    return this.byName.get(name) ?? this.unlistedModel(name);
  }

  /** Resolves a requested id or alias, or answers 400 MODEL_NOT_FOUND. */
  resolve(name: string): ModelInfo {
    const m = this.find(name);
    if (!m) {
      throw new ApiError(
        "MODEL_NOT_FOUND",
        `model '${name}' is not served here; GET /v1/models lists the models, and 'openai/<id>', 'anthropic/<id>', 'gemini/<id>' or 'openai_compatible/<id>' names any other`,
        { param: "model" },
      );
    }
    return m;
  }

  /** USD for a call on a routable model: prompt tokens at the input price, completion tokens at the output price. */
  cost(model: RoutableModel, promptTokens: number, completionTokens: number): number {
    return (promptTokens * model.input_usd_per_mtok + completionTokens * model.output_usd_per_mtok) / 1_000_000;
  }

  /**
   * USD for a prompt the provider partly read from or wrote to its prompt cache: `cached` and `written`
   * are shares of `promptTokens`, cache reads at the cached-input price and writes at the cache-write
   * price (the input price where the catalog has none); null when the model has no price (unlisted).
   */
  promptCacheCost(model: ModelInfo, promptTokens: number, cached: number, written: number, completionTokens: number): number | null {
    if (model.input_usd_per_mtok === null || model.output_usd_per_mtok === null) return null;
    const uncached = Math.max(0, promptTokens - cached - written);
    const read = model.cached_input_usd_per_mtok ?? model.input_usd_per_mtok;
    const write = model.cache_write_usd_per_mtok ?? model.input_usd_per_mtok;
    return (uncached * model.input_usd_per_mtok + cached * read + written * write + completionTokens * model.output_usd_per_mtok) / 1_000_000;
  }

  /** USD for a call on any model; null when the model has no price (unlisted). */
  costOf(model: ModelInfo, promptTokens: number, completionTokens: number): number | null {
    if (model.input_usd_per_mtok === null || model.output_usd_per_mtok === null) return null;
    return (promptTokens * model.input_usd_per_mtok + completionTokens * model.output_usd_per_mtok) / 1_000_000;
  }

  private unlistedModel(name: string): ModelInfo | undefined {
    const known = this.unlisted.get(name);
    if (known) return known;
    const slash = name.indexOf("/");
    let provider: ProviderName | undefined;
    let id = name;
    if (slash > 0 && PROVIDERS.includes(name.slice(0, slash) as ProviderName)) {
      provider = name.slice(0, slash) as ProviderName;
      id = name.slice(slash + 1);
    } else provider = ID_PATTERNS.find(([re]) => re.test(name))?.[1];
    if (!provider || id.length === 0 || /\s/.test(id)) return undefined;
    // A prefixed listed model ("openai/gpt-4o") is the listed one.
    const listed = this.byName.get(id);
    if (listed && listed.provider === provider) return listed;
    const model: ModelInfo = {
      id,
      aliases: [],
      provider,
      input_usd_per_mtok: null,
      output_usd_per_mtok: null,
      context_window: null,
      // Unknown capabilities: the provider itself refuses what the model cannot do.
      features: ["tools", "vision", "json", "json_schema"],
      listed: false,
    };
    if (this.unlisted.size >= MAX_UNLISTED) this.unlisted.clear();
    this.unlisted.set(name, model);
    this.unlisted.set(id, model);
    return model;
  }

  private mustFind(name: string, field: string): ModelInfo {
    const m = this.byName.get(name);
    if (!m) throw new Error(`models file: ${field} '${name}' is not one of the listed models`);
    return m;
  }
}
