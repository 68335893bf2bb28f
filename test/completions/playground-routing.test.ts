import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startAnthropicMock } from "../mocks/anthropic-mock";
import type { MockProvider } from "../mocks/mock-server";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { startOpenAIMock } from "../mocks/openai-mock";
import { waitForKey } from "./support";

let gw: GatewayProcess;
let openai: MockProvider;
let anthropic: MockProvider;
let admin: KeyCreated;
/** POST /v1/playground calls made so far: they share one per-client limit (SVC_PLAYGROUND_PER_MINUTE). */
let playgroundCalls = 0;
beforeAll(async () => {
  openai = startOpenAIMock({ apiKey: "sk-o" });
  anthropic = startAnthropicMock({ apiKey: "sk-a" });
  gw = await startGateway({
    OPENAI_API_KEY: "sk-o",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    ANTHROPIC_API_KEY: "sk-a",
    ANTHROPIC_BASE_URL: anthropic.url,
    SVC_PLAYGROUND_PER_MINUTE: "5",
    // One test sends an 800 KB prompt through the playground to see it routed by context window.
    SVC_PLAYGROUND_MAX_BYTES: "4194304",
    SVC_PROVIDER_RETRY_BASE_MS: "5",
  });
  admin = await gw.cliKey();
  await waitForKey(gw.url, admin.key);
}, 60_000);
afterAll(async () => {
  await gw.stop();
  openai.stop();
  anthropic.stop();
}, 30_000);

const codePrompt = [{ role: "user", content: "Write a Python function that merges two sorted lists into one sorted list without using sort()." }];

describe("routing end to end", () => {
  test("auto routes a coding task to the cheapest configured balanced model and says why", async () => {
    const b = (await (
      await call(`${gw.url}/v1/complete`, admin.key, { body: { model: "auto", messages: codePrompt, svc_options: { cache: false } } })
    ).json()) as any;
    expect(b.svc_meta.routing_reason).toBe("code_task");
    expect(b.model).toBe("claude-3-5-sonnet-20241022");
    expect(b.svc_meta.model_requested).toBe("auto");
    expect(b.svc_meta.quality_score).toBeGreaterThanOrEqual(85);
  });

  test("when the chosen provider fails, the next model of the same or a higher tier answers: fallback", async () => {
    anthropic.failNext(10, 503);
    const b = (await (
      await call(`${gw.url}/v1/complete`, admin.key, { body: { model: "auto", messages: codePrompt, svc_options: { cache: false } } })
    ).json()) as any;
    expect(b.svc_meta.routing_reason).toBe("fallback");
    expect(b.model).toBe("gpt-4o-2024-05-13");
    expect(b.svc_meta.cost_actual_usd).toBeGreaterThan(0);
  });

  test("a prompt too long for the cheapest models' windows goes to a model whose window fits", async () => {
    const long = "lorem ipsum dolor sit amet ".repeat(30_000);
    playgroundCalls++;
    const res = await call(`${gw.url}/v1/playground`, undefined, {
      body: { model: "auto", messages: [{ role: "user", content: `What is the gist of this? ${long}` }], svc_options: { compress: false } },
    });
    const b = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(["claude-3-haiku-20240307", "claude-3-5-sonnet-20241022", "claude-3-opus-20240229"]).toContain(b.model);
  });
});

describe("the playground", () => {
  test("GET serves the page; POST answers the optimizer's analysis without a key, limited per client", async () => {
    const page = await fetch(`${gw.url}/v1/playground`);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("svc playground");
    const before = openai.requests.length + anthropic.requests.length;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await call(`${gw.url}/v1/playground`, undefined, {
        body: { messages: [{ role: "user", content: "Could you please help me write a limerick about cats?" }] },
      });
      statuses.push(r.status);
      if (i === 0) {
        const b = (await r.json()) as any;
        expect(b).toHaveProperty("messages");
        expect(b).toHaveProperty("model");
        expect(b.svc_meta).toHaveProperty("routing_reason");
        expect(b.pii).toEqual([]);
      }
    }
    expect(openai.requests.length + anthropic.requests.length).toBe(before);
    // SVC_PLAYGROUND_PER_MINUTE is 5 per client per minute, counting the calls earlier tests made from this address.
    const allowed = Math.max(0, 5 - playgroundCalls);
    expect(statuses).toEqual([...Array<number>(allowed).fill(200), ...Array<number>(6 - allowed).fill(429)]);
  });
});
