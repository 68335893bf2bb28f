import { describe, expect, test } from "bun:test";
import { Catalog } from "../../src/catalog/catalog";
import { AnthropicProvider } from "../../src/providers/anthropic/provider";
import { GeminiProvider } from "../../src/providers/gemini/provider";
import { OpenAIProvider } from "../../src/providers/openai/provider";
import { buildProviders } from "../../src/providers/registry";
import { startOpenAIMock } from "../mocks/openai-mock";
import { KEY, providerRequest } from "./fixtures";

const catalog = Catalog.load();
const model = (name: string) => catalog.resolve(name);

describe("buildProviders", () => {
  test("with no provider key, the simulator serves every catalog model", () => {
    const reg = buildProviders({}, catalog);
    expect(reg.simulatedOnly).toBe(true);
    expect(reg.configured).toEqual(["simulated"]);
    for (const m of catalog.models) {
      expect(reg.providerFor(m)?.simulated).toBe(true);
      expect(reg.isAvailable(m)).toBe(true);
    }
  });

  test("blank keys count as unset", () => {
    expect(buildProviders({ OPENAI_API_KEY: "  ", ANTHROPIC_API_KEY: "" }, catalog).simulatedOnly).toBe(true);
  });

  test("each key enables its provider, for its models only", () => {
    const reg = buildProviders({ ANTHROPIC_API_KEY: "a", GEMINI_API_KEY: "g" }, catalog);
    expect(reg.simulatedOnly).toBe(false);
    expect(reg.configured.sort()).toEqual(["anthropic", "gemini"]);
    expect(reg.providerFor(model("claude-3-opus"))).toBeInstanceOf(AnthropicProvider);
    expect(reg.providerFor(model("gemini-1.5-pro"))).toBeInstanceOf(GeminiProvider);
    expect(reg.providerFor(model("gpt-4o"))).toBeUndefined();
    expect(reg.isAvailable(model("gpt-4o"))).toBe(false);
    expect(
      reg
        .status()
        .map((s) => s.name)
        .sort(),
    ).toEqual(["anthropic", "gemini"]);
  });

  test("base URL overrides are used, and a malformed one is refused by name", async () => {
    const mock = startOpenAIMock({ apiKey: KEY });
    try {
      const reg = buildProviders({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${mock.url}/v1` }, catalog);
      const provider = reg.providerFor(model("gpt-4o-mini"))!;
      expect(provider).toBeInstanceOf(OpenAIProvider);
      await provider.complete(providerRequest("gpt-4o-mini-2024-07-18"));
      expect(mock.requests).toHaveLength(1);
    } finally {
      mock.stop();
    }
    expect(() => buildProviders({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: "not a url" }, catalog)).toThrow("OPENAI_BASE_URL");
    expect(() => buildProviders({ GEMINI_API_KEY: KEY, GEMINI_BASE_URL: "ftp://x" }, catalog)).toThrow("GEMINI_BASE_URL");
  });

  test("an OpenAI-compatible server serves the models it lists (by id or alias, optionally renamed), ahead of their own provider", async () => {
    const mock = startOpenAIMock();
    try {
      const reg = buildProviders(
        { OPENAI_API_KEY: "real", SVC_OPENAI_COMPAT_BASE_URL: `${mock.url}/v1`, SVC_OPENAI_COMPAT_MODELS: "gpt-4o-mini=llama3.1:8b, claude-3-haiku-20240307" },
        catalog,
      );
      expect(reg.configured.sort()).toEqual(["openai", "openai_compatible"]);
      expect(reg.providerFor(model("gpt-4o-mini"))?.name).toBe("openai_compatible");
      expect(reg.providerFor(model("claude-3-haiku"))?.name).toBe("openai_compatible");
      expect(reg.providerFor(model("gpt-4o"))?.name).toBe("openai");
      expect(reg.providerFor(model("claude-3-opus"))).toBeUndefined();
      await reg.providerFor(model("gpt-4o-mini"))!.complete(providerRequest("gpt-4o-mini-2024-07-18"));
      const seen = mock.requests[0]!;
      expect((seen.body as { model: string }).model).toBe("llama3.1:8b");
      expect(seen.headers.authorization).toBeUndefined();
    } finally {
      mock.stop();
    }
  });

  test("compat settings that cannot work are refused with the variable's name", () => {
    expect(() => buildProviders({ SVC_OPENAI_COMPAT_MODELS: "gpt-4o-mini" }, catalog)).toThrow("SVC_OPENAI_COMPAT_BASE_URL");
    expect(() => buildProviders({ SVC_OPENAI_COMPAT_BASE_URL: "http://localhost:8000/v1", SVC_OPENAI_COMPAT_MODELS: "llama-9000" }, catalog)).toThrow(
      "SVC_OPENAI_COMPAT_MODELS: 'llama-9000'",
    );
  });

  test("the compat key is sent when given", async () => {
    const mock = startOpenAIMock({ apiKey: "local-key" });
    try {
      const reg = buildProviders(
        { SVC_OPENAI_COMPAT_BASE_URL: `${mock.url}/v1`, SVC_OPENAI_COMPAT_API_KEY: "local-key", SVC_OPENAI_COMPAT_MODELS: "gpt-4o-mini" },
        catalog,
      );
      await reg.providerFor(model("gpt-4o-mini"))!.complete(providerRequest("gpt-4o-mini-2024-07-18"));
      expect(mock.requests[0]!.headers.authorization).toBe("Bearer local-key");
    } finally {
      mock.stop();
    }
  });
});
