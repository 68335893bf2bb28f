import { describe, expect, test } from "bun:test";
import { loadSettings } from "../../src/config/config";
import { parseCompletionRequest } from "../../src/http/validate/completion-request";
import { optimizeInputOf } from "../../src/pipeline/analyze";
import { RULE_NAMES } from "../../src/pipeline/compress";
import { embeddingText, foldedText, packFacets, semanticPrompt } from "../../src/pipeline/cache";
import { optimize } from "../../src/pipeline/optimize";
import { loadOptimizerDeps, optimizerDeps } from "../../src/pipeline/optimizer-deps";
import { loadModels } from "../../src/pipeline/models";
import { modelOptionsOf } from "../../src/ml/load";
import type { OptimizeInput } from "../../src/pipeline/optimize-types";

const MODEL = "gpt-4o-mini-2024-07-18";
/** A request as the gateway parses it, with compression and routing off so that the prompt goes on as written. */
const input = (content: string, wantEmbedding: boolean): OptimizeInput => {
  const body = {
    model: MODEL,
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content },
    ],
    svc_options: { compress: false },
  };
  return { ...optimizeInputOf(parseCompletionRequest(body, RULE_NAMES), [MODEL], 85), wantEmbedding, countTokens: false };
};

describe("the optimizer's work for the semantic cache", () => {
  test("with the embedding it packs the facets of the prompt the cache reads; not when the cache wants nothing, nor past the semantic layer's length", async () => {
    const deps = await loadOptimizerDeps(loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-test-optimize-facets" }));
    const prompt = "How do I convert 5 km to miles?  ";
    const out = await optimize(input(prompt, true), deps);
    const cachePrompt = semanticPrompt(out.messages)!;
    expect(out.embedding).toBeDefined();
    expect(out.cacheFacets).toEqual(packFacets(cachePrompt));
    expect((await optimize(input(prompt, false), deps)).cacheFacets).toBeUndefined();
    expect((await optimize(input("why? ".repeat(300), true), deps)).cacheFacets).toBeUndefined();
  });

  test("the cache's vector is of the canonical request (courtesy off, one question frame), not of the prompt as written", async () => {
    const deps = await loadOptimizerDeps(loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-test-optimize-facets" }));
    const prompt = "Hi! What's the way to reset my password? Thanks";
    const out = await optimize(input(prompt, true), deps);
    const cachePrompt = semanticPrompt(out.messages)!;
    expect(embeddingText(cachePrompt)).toBe("how reset my password?");
    expect(Array.from(out.embedding!)).toEqual(Array.from(await deps.models!.embed(embeddingText(cachePrompt))));
    expect(Array.from(out.embedding!)).not.toEqual(Array.from(await deps.models!.embed(foldedText(cachePrompt))));
  });

  test("the event loop's optimizer leaves the facets to the cache: a miss does not wait for them before going upstream", async () => {
    const settings = loadSettings({ ...process.env, SVC_DATA_DIR: "/tmp/svc-test-optimize-facets" });
    const deps = optimizerDeps(settings, await loadModels(undefined, modelOptionsOf(settings)));
    const out = await optimize(input("How do I convert 5 km to miles?", true), deps);
    expect(out.embedding).toBeDefined();
    expect(out.cacheFacets).toBeUndefined();
  });
});
