import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startGateway, type GatewayProcess } from "../support/gateway-process";

/** The README's example, as the playground shows it (issue 25): a real gateway, the simulator upstream. */
const README_EXAMPLE = "Hi there! I hope you are doing well. I was wondering if you could possibly help me write a haiku about the sea. Thanks in advance!";

let gw: GatewayProcess;
beforeAll(async () => {
  gw = await startGateway();
}, 60_000);
afterAll(async () => {
  await gw.stop();
}, 30_000);

describe("the playground and the README's example", () => {
  test("the page opens with the README's example", async () => {
    const page = await (await fetch(`${gw.url}/v1/playground`)).text();
    expect(page).toContain(`<textarea id="prompt">${README_EXAMPLE}</textarea>`);
  });

  test("at the default settings it compresses to a direct request that clears the quality floor", async () => {
    const res = await fetch(`${gw.url}/v1/playground`, {
      method: "POST",
      body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: README_EXAMPLE }] }),
    });
    expect(res.status).toBe(200);
    const b = (await res.json()) as {
      messages: { content: string }[];
      svc_meta: { quality_score: number; rules_applied: string[]; compression_ratio: number };
    };
    expect(b.messages[0]!.content).toBe("Write a haiku about the sea.");
    expect(b.svc_meta.rules_applied).toEqual(["pleasantries", "intent"]);
    expect(b.svc_meta.quality_score).toBeGreaterThanOrEqual(85);
    expect(b.svc_meta.compression_ratio).toBeGreaterThan(0.6);
  });
});
