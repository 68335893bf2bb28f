// The dashboard's data on a million ledger rows: each view's requests (the usage view reads
// /api/usage by day, with the range's totals, and by model) through the real HTTP app (in process,
// real SQLite), one after the other, median and slowest of the runs after one warm-up.
// `bun bench/dashboard-1m.ts [--rows 1000000] [--runs 7] [--dir DIR]`: with --dir the data directory is
// kept, and seeded only when its ledger is empty, so a second run (or another build) times the same rows.
import { sqliteOf } from "../src/store/db";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
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

const kept = process.argv.includes("--dir") ? process.argv[process.argv.indexOf("--dir") + 1]! : undefined;
if (kept) mkdirSync(kept, { recursive: true });
const dir = kept ?? mkdtempSync(join(tmpdir(), "bench-dashboard-"));
const env = { SVC_DATA_DIR: dir, SVC_WORKERS: "0" };
const services = await startServices(loadSettings(env), pino({ level: "silent" }), env);
try {
  const app = buildApp(services);
  const admin = (await services.keys.create("operator", { name: "admin", appId: SEED_APP, type: "live", scopes: ["admin", "complete"] })).key;
  const now = Date.now();
  let t0 = performance.now();
  const sqlite = sqliteOf(services.store, "the benchmark");
  const stored = (sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n;
  if (stored === 0) {
    const seeded = seedLedger(sqlite, rows, now);
    console.log(
      `seeded ${rows.toLocaleString("en-US")} rows (${seeded.calls.toLocaleString("en-US")} in the dashboard's app) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  } else console.log(`${stored.toLocaleString("en-US")} rows already in ${dir}`);
  const usage = (q: string) => [`/api/usage?group_by=day&limit=1000&${q}`, `/api/usage?group_by=model&limit=1000&totals=false&${q}`];
  // The page asks for whole UTC days (from a date's midnight to the midnight after the last date), which
  // the rollup answers alone; a range to the millisecond also reads its two partial days' ledger rows.
  const midnight = Math.floor(now / DAY) * DAY;
  const days = (n: number) => `from=${midnight - (n - 1) * DAY}&to=${midnight + DAY}`;
  const views: [string, string[]][] = [
    ["usage, last 30 days", usage(days(30))],
    ["usage, 90 days", usage(days(91))],
    ["usage, 90 days, one key", usage(`${days(91)}&key_id=key_seed7`)],
    ["usage, 90 days, one model", usage(`${days(91)}&model=${SEED_MODELS[1]}`)],
    ["usage, last 7 days", usage(days(7))],
    ["usage, 30 days to the millisecond (two partial days from the ledger)", usage(`from=${now - 30 * DAY}&to=${now}`)],
    ["budgets", ["/api/budgets", `/api/usage?group_by=budget&limit=1000&totals=false&${days(30)}`]],
    ["agent runs", [`/api/usage?group_by=agent_run&limit=1000&totals=false&${days(30)}`]],
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
  if (!kept) rmSync(dir, { recursive: true, force: true });
}
