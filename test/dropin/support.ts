import { afterAll, beforeAll } from "bun:test";
import OpenAI from "openai";
import OpenAIv6 from "openai-v6";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import { startGeminiMock } from "../mocks/gemini-mock";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";
import { startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { waitForKey } from "../completions/support";

/** svc in front of mocks of all three providers' wire formats, as a user would run it. */
export interface DropInRig {
  gw: GatewayProcess;
  openai: MockProvider;
  anthropic: MockProvider;
  gemini: MockProvider;
  admin: KeyCreated;
  /** The base URL an OpenAI client is given: svc's /v1. */
  baseURL: string;
}

export function dropInRig(env: Record<string, string> = {}): DropInRig {
  const rig = {} as DropInRig;
  beforeAll(async () => {
    const openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
    const anthropic = startAnthropicMock({ apiKey: "sk-mock-anthropic" });
    const gemini = startGeminiMock({ apiKey: "mock-gemini" });
    const gw = await startGateway({
      OPENAI_API_KEY: "sk-mock-openai",
      OPENAI_BASE_URL: `${openai.url}/v1`,
      ANTHROPIC_API_KEY: "sk-mock-anthropic",
      ANTHROPIC_BASE_URL: anthropic.url,
      GEMINI_API_KEY: "mock-gemini",
      GEMINI_BASE_URL: gemini.url,
      SVC_PROVIDER_RETRY_BASE_MS: "5",
      ...env,
    });
    const admin = await gw.cliKey(["--admin"]);
    await waitForKey(gw.url, admin.key);
    Object.assign(rig, { gw, openai, anthropic, gemini, admin, baseURL: `${gw.url}/v1` });
  }, 60_000);
  afterAll(async () => {
    await rig.gw?.stop();
    for (const m of [rig.openai, rig.anthropic, rig.gemini]) m?.stop();
  }, 30_000);
  return rig;
}

/** Both majors of the openai SDK, constructed the way users do: base URL and key changed, nothing else. */
/** `fetch` only to count what the SDK sends. */
type SdkOptions = { maxRetries?: number; fetch?: (url: string | URL | Request, init?: RequestInit) => Promise<Response> };
export const SDKS = [
  { name: "openai v7", make: (baseURL: string, apiKey: string, opts: SdkOptions = {}) => new OpenAI({ baseURL, apiKey, ...opts }) },
  {
    name: "openai v6",
    make: (baseURL: string, apiKey: string, opts: SdkOptions = {}) => new OpenAIv6({ baseURL, apiKey, ...opts }) as unknown as OpenAI,
  },
] as const;

/** The last request body a mock received. */
export function lastBody(mock: MockProvider): Record<string, any> {
  return mock.requests.at(-1)!.body as Record<string, any>;
}

export const OFF = { compress: false, route: false, cache: false, score: false };
