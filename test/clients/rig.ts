import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import type { MockProvider } from "../mocks/mock-server";
import { startOpenAIMock } from "../mocks/openai-mock";
import { waitForKey } from "../completions/support";
import { startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";

/** Calls a test key may make per day on this rig, so RATE_LIMITED is reached for real. */
export const TEST_KEY_DAILY_CALLS = 2;
/** A plan whose monthly quota is one call, so QUOTA_EXCEEDED is reached for real. */
export const TINY_PLAN = "tiny";
export const MAX_BODY_BYTES = 4096;

/** Which model meets which upstream on this rig. */
export const MODELS = {
  /** OpenAI mock: answers. */
  ok: "gpt-4o-mini",
  /** Anthropic mock that answers every request with HTTP 500: 502 UPSTREAM_ERROR. */
  failing: "claude-3-haiku",
  /** An OpenAI-compatible mock that never answers: 504 UPSTREAM_TIMEOUT. */
  hanging: "gemini-1.5-pro",
  /** No provider configured for it: 503 NO_PROVIDER. */
  unserved: "gemini-1.5-flash",
} as const;

export interface ClientRig {
  gw: GatewayProcess;
  openai: MockProvider;
  admin: KeyCreated;
  stop(): Promise<void>;
}

/**
 * A real `svc serve` process with mock upstreams speaking the providers' real wire formats, set up so
 * that every error code the server can produce is reachable from a client call.
 */
export async function startClientRig(): Promise<ClientRig> {
  const openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
  const anthropic = startAnthropicMock({ apiKey: "sk-mock-anthropic" });
  anthropic.failNext(1_000_000, 500);
  const slow = startOpenAIMock();
  slow.hang = true;
  const dir = mkdtempSync(join(tmpdir(), "clients-rig-"));
  const plans = join(dir, "plans.json");
  writeFileSync(
    plans,
    JSON.stringify({
      default_plan: "free",
      plans: [
        { id: "free", monthly_calls: 10_000 },
        { id: TINY_PLAN, monthly_calls: 1 },
      ],
    }),
  );
  const gw = await startGateway({
    OPENAI_API_KEY: "sk-mock-openai",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: "sk-mock-anthropic",
    ANTHROPIC_BASE_URL: anthropic.url,
    SVC_OPENAI_COMPAT_BASE_URL: `${slow.url}/v1`,
    SVC_OPENAI_COMPAT_MODELS: MODELS.hanging,
    SVC_PROVIDER_RETRIES: "0",
    // Long enough that a loaded machine never times out the answering mocks (load average ~30 on 2 cores here).
    SVC_PROVIDER_TIMEOUT_MS: "2500",
    SVC_TEST_KEY_DAILY_CALLS: String(TEST_KEY_DAILY_CALLS),
    SVC_PLANS_FILE: plans,
    SVC_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  });
  const admin = await gw.cliKey(["--admin", "--app", "clients-app"]);
  await waitForKey(gw.url, admin.key);
  return {
    gw,
    openai,
    admin,
    async stop() {
      await gw.stop();
      for (const m of [openai, anthropic, slow]) m.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One rig for the whole test file. Read its fields inside tests and hooks only. */
export function clientRigPerFile(): ClientRig {
  const rig = {} as ClientRig;
  beforeAll(async () => {
    Object.assign(rig, await startClientRig());
  }, 60_000);
  afterAll(() => rig.stop(), 30_000);
  return rig;
}
