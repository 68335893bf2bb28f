import { OpenAIProvider } from "../openai/provider";

export interface OpenAICompatibleConfig {
  /** Up to and including the version segment, e.g. http://localhost:8000/v1 (vLLM) or http://localhost:11434/v1 (Ollama). */
  baseUrl: string;
  apiKey?: string;
  /** Catalog model id → the name the local server serves it under. */
  upstreamModels?: Readonly<Record<string, string>>;
}

export const OPENAI_COMPATIBLE_NAME = "openai_compatible";

/** vLLM, Ollama and llama.cpp speak OpenAI Chat Completions; only the address, key and model names differ. */
export function createOpenAICompatibleProvider(config: OpenAICompatibleConfig): OpenAIProvider {
  return new OpenAIProvider({ name: OPENAI_COMPATIBLE_NAME, ...config });
}
