// The dashboard's data on a million ledger rows: each view's requests (the usage view reads
// /api/usage by day, with the range's totals, and by model) through the real HTTP app (in process,
// real SQLite), one after the other, median and slowest of the runs after one warm-up.
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
  console.log(
    `seeded ${rows.toLocaleString("en-US")} rows (${seeded.calls.toLocaleString("en-US")} in the dashboard's app) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const usage = (q: string) => [`/api/usage?group_by=day&limit=1000&${q}`, `/api/usage?group_by=model&limit=1000&totals=false&${q}`];
  const views: [string, string[]][] = [
    ["usage, last 30 days", usage(`to=${now}`)],
    ["usage, 90 days", usage(`from=${now - 91 * DAY}&to=${now}`)],
    ["usage, 90 days, one key", usage(`from=${now - 91 * DAY}&to=${now}&key_id=key_seed7`)],
    ["usage, 90 days, one model", usage(`from=${now - 91 * DAY}&to=${now}&model=${SEED_MODELS[1]}`)],
    ["usage, last 7 days", usage(`from=${now - 7 * DAY}&to=${now}`)],
    ["budgets", ["/api/budgets", `/api/usage?group_by=budget&limit=1000&totals=false&from=${now - 30 * DAY}`]],
    ["agent runs", [`/api/usage?group_by=agent_run&limit=1000&totals=false&from=${now - 30 * DAY}`]],
    ["keys", ["/api/keys"]],
  ];
  console.log(`| view | median ms | slowest ms | (${runs} runs after a warm-up) |\n|---|---|---|---|`);
  for (const [name, paths] of views) {
    const times: number[] = [];
    for (let i = 0; i <= runs; i++) {
      t0 = performance.now();
      for (const path of paths) {
        const res = await app.handle(new Request(`http://svc.local${path}`, { headers: { authorization: `Bearer ${admin}` } }));
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        await res.json();
      }
      if (i > 0) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`| ${name} | ${times[Math.floor(times.length / 2)]!.toFixed(1)} | ${times.at(-1)!.toFixed(1)} | |`);
  }
} finally {
  await closeServices(services);
  rmSync(dir, { recursive: true, force: true });
}
