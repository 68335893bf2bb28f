import type { Catalog, ModelInfo, ProviderName } from "../catalog/catalog";
import { AnthropicProvider } from "./anthropic/provider";
import { GeminiProvider } from "./gemini/provider";
import { DEFAULT_HEALTH_POLICY, ProviderHealth, type HealthPolicy, type ProviderHealthView } from "./health";
import { createOpenAICompatibleProvider } from "./openai-compatible/provider";
import { OPENAI_BASE_URL, OpenAIProvider } from "./openai/provider";
import { SimulatedProvider } from "./simulated/provider";
import type { Provider } from "./types";

export interface RegistryOptions {
  health?: Partial<HealthPolicy>;
  /** Clock for the health cool-down; tests pass a fake one. */
  now?: () => number;
}

/**
 * Which provider serves which catalog model, and whether it is healthy right now. Built once at start-up
 * from the environment; routing asks `isAvailable`, the call loop asks `providerFor` and reports outcomes
 * to `health`.
 */
export class ProviderRegistry {
  readonly health: ProviderHealth;

  constructor(
    private readonly byName: ReadonlyMap<ProviderName, Provider>,
    /** Catalog model ids the OpenAI-compatible server serves in place of their own provider. */
    private readonly compatModels: ReadonlySet<string>,
    private readonly simulator: Provider | undefined,
    options: RegistryOptions = {},
  ) {
    this.health = new ProviderHealth({ ...DEFAULT_HEALTH_POLICY, ...options.health }, options.now);
  }

  /** True when no provider key is configured and every model is answered by the simulator. */
  get simulatedOnly(): boolean {
    return this.simulator !== undefined;
  }

  /** Names of the providers that can be called, for /health and the start-up banner. */
  get configured(): string[] {
    return this.simulator ? [this.simulator.name] : [...this.byName.values()].map((p) => p.name);
  }

  providerFor(model: ModelInfo): Provider | undefined {
    if (this.simulator) return this.simulator;
    if (this.compatModels.has(model.id)) return this.byName.get("openai_compatible");
    return this.byName.get(model.provider);
  }

  /** Configured and not cooling down after recent failures. */
  isAvailable(model: ModelInfo): boolean {
    const provider = this.providerFor(model);
    return provider !== undefined && this.health.isHealthy(provider.name);
  }

  status(): ProviderHealthView[] {
    const providers = this.simulator ? [this.simulator] : [...this.byName.values()];
    return providers.map((p) => this.health.view(p.name, p.simulated));
  }
}

/**
 * Reads ANTHROPIC_/OPENAI_/GEMINI_API_KEY (+ _BASE_URL) and SVC_OPENAI_COMPAT_BASE_URL / _API_KEY / _MODELS.
 * SVC_OPENAI_COMPAT_MODELS is a comma list of catalog ids or aliases, each optionally `=name-on-the-server`
 * (e.g. `gpt-4o-mini=llama3.1:8b`). Throws a clear error, naming the variable, for a setting that cannot work.
 */
export function buildProviders(env: Record<string, string | undefined>, catalog: Catalog, options: RegistryOptions = {}): ProviderRegistry {
  const value = (name: string): string | undefined => env[name]?.trim() || undefined;
  const byName = new Map<ProviderName, Provider>();

  const anthropicKey = value("ANTHROPIC_API_KEY");
  if (anthropicKey) byName.set("anthropic", new AnthropicProvider({ apiKey: anthropicKey, baseUrl: baseUrl(env, "ANTHROPIC_BASE_URL") }));
  const openaiKey = value("OPENAI_API_KEY");
  if (openaiKey) byName.set("openai", new OpenAIProvider({ name: "openai", apiKey: openaiKey, baseUrl: baseUrl(env, "OPENAI_BASE_URL") ?? OPENAI_BASE_URL }));
  const geminiKey = value("GEMINI_API_KEY");
  if (geminiKey) byName.set("gemini", new GeminiProvider({ apiKey: geminiKey, baseUrl: baseUrl(env, "GEMINI_BASE_URL") }));

  const compatUrl = baseUrl(env, "SVC_OPENAI_COMPAT_BASE_URL");
  const compatList = value("SVC_OPENAI_COMPAT_MODELS");
  const compatModels = new Set<string>();
  if (compatList && !compatUrl) throw new Error("SVC_OPENAI_COMPAT_MODELS is set but SVC_OPENAI_COMPAT_BASE_URL is not: which server should serve them?");
  if (compatUrl) {
    const upstreamModels: Record<string, string> = {};
    for (const entry of (compatList ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter(Boolean)) {
      const [name = "", upstream] = entry.split("=", 2).map((s) => s.trim());
      const model = catalog.find(name);
      if (!model) throw new Error(`SVC_OPENAI_COMPAT_MODELS: '${name}' is not a model id or alias of the catalog`);
      compatModels.add(model.id);
      if (upstream) upstreamModels[model.id] = upstream;
    }
    byName.set("openai_compatible", createOpenAICompatibleProvider({ baseUrl: compatUrl, apiKey: value("SVC_OPENAI_COMPAT_API_KEY"), upstreamModels }));
  }

  const simulator = byName.size === 0 ? new SimulatedProvider(catalog) : undefined;
  return new ProviderRegistry(byName, compatModels, simulator, options);
}

function baseUrl(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} is not a URL: '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`${name} must be an http(s) URL, got '${raw}'`);
  return raw;
}
