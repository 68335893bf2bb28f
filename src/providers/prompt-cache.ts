import type { ModelInfo } from "../catalog/catalog";

/**
 * The shortest prefix a provider caches, in its tokens; undefined when it has no prompt cache we know
 * of (an OpenAI-compatible server). From the providers' documentation: OpenAI caches prompts from
 * 1,024 tokens; Anthropic from 1,024 on Sonnet and Opus and 2,048 on Haiku; Gemini's implicit cache
 * from 1,024 on Flash and 2,048 on Pro (2.x), while Gemini 1.5 caches only explicitly created context
 * of 32,768 tokens or more.
 */
export function promptCacheMinTokens(m: ModelInfo): number | undefined {
  switch (m.provider) {
    case "openai":
      return 1024;
    case "anthropic":
      return /haiku/.test(m.id) ? 2048 : 1024;
    case "gemini":
      if (/^gemini-1\./.test(m.id)) return 32_768;
      return /pro/.test(m.id) ? 2048 : 1024;
    default:
      return undefined;
  }
}
