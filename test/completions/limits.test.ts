import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { call } from "../support/gateway-process";
import { OFF, rigPerFile, waitForKey } from "./support";

const plansDir = mkdtempSync(join(tmpdir(), "svc-plans-"));
writeFileSync(
  join(plansDir, "plans.json"),
  JSON.stringify({
    default_plan: "free",
    plans: [
      { id: "free", monthly_calls: 1000 },
      { id: "tiny", monthly_calls: 3 },
    ],
  }),
);
const rig = rigPerFile({ SVC_PLANS_FILE: join(plansDir, "plans.json") });

const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Count to three." }], svc_options: OFF };

describe("call limits on /v1/complete", () => {
  test("150 concurrent calls on a fresh test key get exactly 100 successes", async () => {
    const t = await rig.gw.cliKey(["--type", "test"]);
    await waitForKey(rig.gw.url, t.key);
    const results = await Promise.all(Array.from({ length: 150 }, () => call(`${rig.gw.url}/v1/complete`, t.key, { body })));
    const ok = results.filter((r) => r.status === 200).length;
    const limited = results.filter((r) => r.status === 429);
    expect(ok).toBe(100);
    expect(limited).toHaveLength(50);
    const e = ((await limited[0]!.json()) as any).error;
    expect(e.code).toBe("RATE_LIMITED");
    const retry = Number(limited[0]!.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
  });

  test("a failed call does not use up the limit", async () => {
    const t = await rig.gw.cliKey(["--type", "live", "--plan", "tiny"]);
    await waitForKey(rig.gw.url, t.key);
    rig.openai.failNext(3, 500);
    expect((await call(`${rig.gw.url}/v1/complete`, t.key, { body })).status).toBe(502);
    for (let i = 0; i < 3; i++) expect((await call(`${rig.gw.url}/v1/complete`, t.key, { body })).status).toBe(200);
    const over = await call(`${rig.gw.url}/v1/complete`, t.key, { body });
    expect(over.status).toBe(429);
    expect(((await over.json()) as any).error.code).toBe("QUOTA_EXCEEDED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("counts survive a restart", async () => {
    const t = await rig.gw.cliKey(["--type", "live", "--plan", "tiny"]);
    await waitForKey(rig.gw.url, t.key);
    for (let i = 0; i < 2; i++) expect((await call(`${rig.gw.url}/v1/complete`, t.key, { body })).status).toBe(200);
    const { startGateway } = await import("../support/gateway-process");
    const dataDir = rig.gw.dataDir;
    const env = rig.gw.env;
    rig.gw.proc.kill("SIGTERM");
    await rig.gw.proc.exited;
    const again = await startGateway(env, { dataDir });
    rig.gw = again;
    expect((await call(`${again.url}/v1/complete`, t.key, { body })).status).toBe(200);
    expect((await call(`${again.url}/v1/complete`, t.key, { body })).status).toBe(429);
  });
});

describe("SVC_TEST_KEY_DAILY_CALLS", () => {
  const small = rigPerFile({ SVC_TEST_KEY_DAILY_CALLS: "2" });

  test("sets the daily limit of test keys, and only theirs", async () => {
    const t = await small.gw.cliKey(["--type", "test"]);
    const live = await small.gw.cliKey(["--type", "live"]);
    await waitForKey(small.gw.url, t.key);
    await waitForKey(small.gw.url, live.key);
    for (let i = 0; i < 2; i++) expect((await call(`${small.gw.url}/v1/complete`, t.key, { body })).status).toBe(200);
    const over = await call(`${small.gw.url}/v1/complete`, t.key, { body });
    expect(over.status).toBe(429);
    const e = ((await over.json()) as any).error;
    expect(e.code).toBe("RATE_LIMITED");
    expect(e.message).toContain("2 calls per UTC day");
    for (let i = 0; i < 3; i++) expect((await call(`${small.gw.url}/v1/complete`, live.key, { body })).status).toBe(200);
  });
});
