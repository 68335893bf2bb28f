// The dashboard's data endpoint on a million ledger rows: each view's time through the real HTTP app
// (in process, real SQLite), median and slowest of the runs after one warm-up.
// `bun bench/dashboard-1m.ts [--rows 1000000] [--runs 7]`.
import { sqliteOf } from "../src/store/db";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { loadSettings } from "../src/config/config";
import { closeServices, startServices } from "../src/gateway";
import { buildApp } from "../src/http/app";
import { SEED_APP, SEED_MODELS, seedLedger } from "./lib/ledger-seed";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const rows = arg("--rows", 1_000_000);
const runs = arg("--runs", 7);
const DAY = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), "bench-dashboard-"));
const env = { SVC_DATA_DIR: dir, SVC_WORKERS: "0" };
const services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
try {
  const app = buildApp(services);
  const admin = (await services.keys.create("operator", { name: "admin", appId: SEED_APP, type: "live", scopes: ["admin", "complete"] })).key;
  const now = Date.now();
  let t0 = performance.now();
  const seeded = seedLedger(sqliteOf(services.store, "the benchmark"), rows, now);
  if (process.argv.includes("--covering")) {
    sqliteOf(services.store, "the benchmark").run(
      "CREATE INDEX bench_cover ON usage_ledger (app_id, created_at, key_id, model, status, cache_hit, original_tokens, prompt_tokens, cost_original_usd, cost_actual_usd, saved_usd, overhead_ms)",
    );
    sqliteOf(services.store, "the benchmark").run("ANALYZE");
  }
  console.log(
    `seeded ${rows.toLocaleString("en-US")} rows (${seeded.calls.toLocaleString("en-US")} in the dashboard's app) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const views: [string, string][] = [
    ["usage, last 30 days", `/api/dashboard/usage?to=${now}`],
    ["usage, 90 days", `/api/dashboard/usage?from=${now - 91 * DAY}&to=${now}`],
    ["usage, 90 days, one key", `/api/dashboard/usage?from=${now - 91 * DAY}&to=${now}&key_id=key_seed7`],
    ["usage, 90 days, one model", `/api/dashboard/usage?from=${now - 91 * DAY}&to=${now}&model=${SEED_MODELS[1]}`],
    ["usage, last 7 days", `/api/dashboard/usage?from=${now - 7 * DAY}&to=${now}`],
    ["keys list", "/api/keys"],
  ];
  console.log(`| view | median ms | slowest ms | (${runs} runs after a warm-up) |\n|---|---|---|---|`);
  for (const [name, path] of views) {
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      t0 = performance.now();
      const res = await app.handle(new Request(`http://svc.local${path}`, { headers: { authorization: `Bearer ${admin}` } }));
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      await res.json();
      if (i > 0) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${name} | ${times[Math.floor(times.length / 2)]!.toFixed(1)} | ${times.at(-1)!.toFixed(1)} | |`);
  }
} finally {
  await closeServices(services);
  rmSync(dir, { recursive: true, force: true });
}
