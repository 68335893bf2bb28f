import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ALLOCATOR_ENV } from "../../src/config/config";

const ROOT = join(import.meta.dir, "..", "..");

describe("the allocator settings svc launches with", () => {
  // The svc command's shebang is run and checked in launch.test.ts.
  test("npm start and npm run svc set ALLOCATOR_ENV unless the caller has", () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    for (const [name, value] of Object.entries(ALLOCATOR_ENV))
      for (const script of [scripts.start!, scripts.svc!]) expect(script).toContain(`${name}=\${${name}:-${value}} `);
  });

  // A native burst (~100 MB of strings) dropped: with the purge delay svc sets, the pages go back to the
  // operating system about 10 s after the collector freed them (12 s here); never purging (-1), which saved a little more CPU, keeps them. The
  // second case shows the check can fail.
  const BURST = `
    const { readFileSync } = require("node:fs");
    const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
    let keep = [];
    for (let i = 0; i < 20000; i++) keep.push("x".repeat(5000 + (i % 100)) + i);
    const peak = rss();
    keep = [];
    // Some garbage so the collector runs and frees the burst, then idle as a gateway between bursts.
    for (let i = 0; i < 200000; i++) keep.push({ i });
    keep = [];
    let low = peak;
    const until = Date.now() + 20000;
    while (Date.now() < until && peak - low < 60) {
      await Bun.sleep(250);
      low = Math.min(low, rss());
    }
    console.log(JSON.stringify({ peak, low }));
  `;
  const burst = async (env: Record<string, string>) => {
    const proc = Bun.spawn([process.execPath, "-e", BURST], { env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    return JSON.parse(out) as { peak: number; low: number };
  };

  test.skipIf(process.platform !== "linux")("a burst's memory goes back to the system with them, and stays with purging off", async () => {
    const [svc, never] = await Promise.all([burst(ALLOCATOR_ENV), burst({ ...ALLOCATOR_ENV, MIMALLOC_PURGE_DELAY: "-1" })]);
    expect(svc.peak - svc.low).toBeGreaterThan(60);
    expect(never.peak - never.low).toBeLessThan(20);
  });
});
