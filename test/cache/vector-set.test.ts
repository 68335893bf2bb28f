import { expect, test } from "bun:test";
import { join } from "node:path";

/**
 * usearch 2.25 never reclaimed removed slots: a bounded cache that kept evicting and inserting spun
 * forever inside `add` after about ten times its size in insertions, freezing the event loop. The churn
 * runs in a child process so that a hang fails this test instead of stalling the suite.
 */
test("a full partition keeps evicting and inserting without hanging, growing or losing vectors", async () => {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "scripts", "vector-set-churn.ts")], { stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => child.kill(), 45_000);
  const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  clearTimeout(killer);
  expect(code).toBe(0);
  const result = JSON.parse(out) as { size: number; live: number; found: number };
  expect(result.size).toBe(1_000);
  expect(result.live).toBe(1_000);
  expect(result.found).toBeGreaterThanOrEqual(990);
});
