import { afterAll, beforeAll } from "bun:test";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";
import { startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { waitForKey } from "../support/wait";

export { waitForKey };

export interface Rig {
  gw: GatewayProcess;
  openai: MockProvider;
  admin: KeyCreated;
  stop(): Promise<void>;
}

/** A gateway whose OpenAI provider is a local mock speaking the real wire format. */
export async function startRig(env: Record<string, string> = {}): Promise<Rig> {
  const openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
  const gw = await startGateway({ OPENAI_API_KEY: "sk-mock-openai", OPENAI_BASE_URL: `${openai.url}/v1`, SVC_PROVIDER_RETRY_BASE_MS: "5", ...env });
  const admin = await gw.cliKey(["--admin"]);
  await waitForKey(gw.url, admin.key);
  const rig: Rig = {
    gw,
    openai,
    admin,
    // this.gw, not gw: a test that restarts the gateway puts the new process there.
    async stop() {
      await this.gw.stop();
      openai.stop();
    },
  };
  return rig;
}

/**
 * One rig for the whole test file: started before its first test, stopped after its last. The
 * object is filled in by the start hook, so read its fields inside tests and hooks only.
 */
export function rigPerFile(env: Record<string, string> = {}): Rig {
  const rig = {} as Rig;
  beforeAll(async () => {
    Object.assign(rig, await startRig(env));
  }, 60_000);
  afterAll(() => rig.stop(), 30_000);
  return rig;
}

export const OFF = { compress: false, route: false, cache: false, score: false };

/**
 * A call of a known price: gpt-4o-2024-05-13 at $5 per million tokens both ways. The mock counts a prompt
 * as its words + 7 and answers "openai <digest> heard: <the first six words>", 9 tokens: a six-word
 * prompt (`six`) is 13 + 9 = 22 tokens, CALL_MICROS ($0.00011) a call.
 */
export const CALL_MICROS = 110;
export const bodyFor = (words: string, extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-2024-05-13",
  max_tokens: 9,
  messages: [{ role: "user", content: words }],
  svc_options: { ...OFF, ...extra },
});
export const six = (i: number) => `alpha beta gamma delta epsilon z${i}`;

/** Reads an SSE body into its `data:` payloads, in order. */
export async function readSse(res: Response): Promise<string[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => f.replace(/^data: /, ""));
}
