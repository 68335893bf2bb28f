/**
 * Scale-out: one gateway node against two on the same mock, with Redis (and PostgreSQL when the store
 * runs on it, SVC_DATABASE_URL), against the baseline of SQLite on one node without Redis. Reports
 * throughput, latency (p50, p99) and the latency each configuration adds over the baseline, and the
 * store's own cost per call: Redis commands and bytes (from a Redis of this run's own, so nobody
 * else's traffic is counted) and, on PostgreSQL, transactions and rows written.
 *
 *   nice -n 10 bun bench/scale-out.ts [--rounds 3] [--seconds 4] [--concurrency 32] [--out bench/results]
 *
 * Configurations run interleaved (bench/lib/measure.ts roundOrder), so machine noise lands on all alike;
 * figures are medians over rounds. On this project's 2-core machine the load generator gets core 0 and
 * every server core 1 (bench/lib/processes.ts corePlan): two nodes share one core, so the run shows what
 * coordination costs a node, not how far two machines go (docs/deploy.md's capacity model does that).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RedisClient } from "bun";
import { SettingsSchema } from "../src/config/config";
import { runContext } from "./lib/machine";
import { roundOrder } from "./lib/measure";
import { corePlan, stopAll, type Service } from "./lib/processes";
import { median, percentile } from "./lib/stats";
import { startGateway, startMock, type GatewayService } from "./lib/targets";
import { startOwnRedis } from "../test/support/redis-server";
import { freePort } from "../test/support/free-port";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "4" },
    concurrency: { type: "string", default: "32" },
    out: { type: "string", default: join(import.meta.dir, "results") },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONCURRENCY = Number(args.concurrency);
const say = (line: string) => console.log(line);

const PG_URL = process.env.SVC_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const PG_DB = "svc_scaleredis_bench";
/** The store runs on PostgreSQL only once the gateway has the setting (issue 32, part A). */
const pgStore = "databaseUrl" in SettingsSchema.properties;

interface Config {
  name: string;
  nodes: GatewayService[];
  redisPrefix?: string;
  pg?: boolean;
}

/** What the clients send: the pure relay, or the same call held to a budget (a reservation and a settle per call). */
const WORKLOADS = ["pure relay", "budgeted"] as const;
type Workload = (typeof WORKLOADS)[number];

/** One configuration under one workload: what a round measures. */
interface Target {
  name: string;
  workload: Workload;
  config: Config;
  body: string;
}

interface Round {
  calls: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
  redisCommands?: number;
  redisRoundTrips?: number;
  redisBytes?: number;
  pgCommits?: number;
  pgRowsWritten?: number;
}

const bodyOf = (budgetId?: string) =>
  JSON.stringify({
    model: "gpt-4o-mini",
    max_tokens: 16,
    messages: [{ role: "user", content: "Say hello to the benchmark in a few words." }],
    svc_options: { compress: false, route: false, cache: false, score: false, ...(budgetId ? { budget_id: budgetId } : {}) },
  });

/** A budget no run can spend (a million dollars), so every call is reserved and settled and none refused. */
async function createBudget(url: string, key: string): Promise<string> {
  const r = await fetch(`${url}/api/budgets`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bench", limit_usd: 1_000_000, period: "total" }),
  });
  if (r.status !== 201) throw new Error(`creating the budget: ${r.status} ${await r.text()}`);
  return ((await r.json()) as { id: string }).id;
}

/** CONCURRENCY clients, each sending one call after another, round robin over the configuration's nodes, for SECONDS. */
async function load(urls: string[], key: string, body: string): Promise<{ calls: number; errors: number; seconds: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  let errors = 0;
  let next = 0;
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const url = urls[next++ % urls.length]!;
        const t = performance.now();
        try {
          const r = await fetch(`${url}/v1/complete`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body,
          });
          await r.arrayBuffer();
          if (r.status === 200) latenciesMs.push(performance.now() - t);
          else errors++;
        } catch {
          errors++;
        }
      }
    }),
  );
  return { calls: latenciesMs.length, errors, seconds: (performance.now() - start) / 1000, latenciesMs };
}

/** Round trips the configuration's nodes sent to Redis so far (their /metrics, summed): a script is one, whatever it runs. */
async function redisRoundTrips(c: Config): Promise<number> {
  let total = 0;
  for (const n of c.nodes) {
    const text = await (await fetch(`${n.url}/metrics`, { headers: { authorization: `Bearer ${n.key}` } })).text();
    total += Number(text.match(/^svc_redis_commands_total (\d+)/m)?.[1] ?? 0);
  }
  return total;
}

async function redisTotals(redis: RedisClient): Promise<{ commands: number; bytes: number }> {
  const info = (await redis.send("INFO", ["all"])) as string;
  const num = (re: RegExp) => Number(info.match(re)?.[1] ?? 0);
  let commands = 0;
  for (const m of info.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) commands += Number(m[1]);
  return { commands, bytes: num(/^total_net_input_bytes:(\d+)/m) + num(/^total_net_output_bytes:(\d+)/m) };
}

function psql(sql: string, db = "postgres"): string {
  const r = Bun.spawnSync(["psql", `${PG_URL}/${db}`, "-Atc", sql], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`psql: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

function pgTotals(): { commits: number; rows: number } {
  const [commits, ins, upd, del] = psql(`SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = '${PG_DB}'`)
    .split("|")
    .map(Number);
  return { commits: commits!, rows: ins! + upd! + del! };
}

async function main(): Promise<void> {
  const cores = corePlan();
  const work = mkdtempSync(join(tmpdir(), "svc-scale-out-"));
  const port = freePort();
  const ownRedis = startOwnRedis(port, work);
  const redisUrl = ownRedis.url;
  const redis = new RedisClient(redisUrl);
  try {
    const mock = await startMock(work, cores.servers, { latencyMs: 0, chunkDelayMs: 0 });
    const mockUrl = `${mock.url}`;
    const node = (name: string, env: Record<string, string> = {}, dataDir?: string) =>
      startGateway(work, cores.servers, mockUrl, "warn", name, [], undefined, { env: { SVC_WORKERS: "1", ...env }, dataDir });
    const configs: Config[] = [];
    configs.push({ name: "SQLite, 1 node", nodes: [await node("sqlite-1")] });
    const redisEnv = (prefix: string) => ({ SVC_REDIS_URL: redisUrl, SVC_REDIS_PREFIX: prefix });
    const r1 = await node("redis-1", redisEnv("one"));
    configs.push({ name: "SQLite + Redis, 1 node", nodes: [r1], redisPrefix: "one" });
    const r2a = await node("redis-2", redisEnv("two"));
    configs.push({ name: "SQLite + Redis, 2 nodes", nodes: [r2a, await node("redis-2b", redisEnv("two"), join(work, "redis-2"))], redisPrefix: "two" });
    if (pgStore) {
      psql(`DROP DATABASE IF EXISTS ${PG_DB}`);
      psql(`CREATE DATABASE ${PG_DB}`);
      // One secret for every node of a store (key hashes must agree), a node id each, as on separate machines.
      const secret = randomBytes(32).toString("hex");
      const pgEnv = (prefix: string, id: string) => ({
        ...redisEnv(prefix),
        SVC_DATABASE_URL: `${PG_URL}/${PG_DB}`,
        SVC_SECRET: secret,
        SVC_NODE_ID: id,
      });
      configs.push({ name: "PostgreSQL + Redis, 1 node", nodes: [await node("pg-1", pgEnv("pg1", "pg-1"))], redisPrefix: "pg1", pg: true });
      const p2a = await node("pg-2", pgEnv("pg2", "pg-2"));
      configs.push({ name: "PostgreSQL + Redis, 2 nodes", nodes: [p2a, await node("pg-2b", pgEnv("pg2", "pg-2b"))], redisPrefix: "pg2", pg: true });
    } else say("PostgreSQL store not in this tree (no SVC_DATABASE_URL setting): measuring SQLite (+ Redis) only");

    const targets: Target[] = [];
    for (const workload of WORKLOADS)
      for (const config of configs) {
        const budget = workload === "budgeted" ? await createBudget(config.nodes[0]!.url, config.nodes[0]!.key) : undefined;
        targets.push({ name: `${config.name}, ${workload}`, workload, config, body: bodyOf(budget) });
      }
    const run = (t: Target) =>
      load(
        t.config.nodes.map((n) => n.url),
        t.config.nodes[0]!.key,
        t.body,
      );
    const measure = async (t: Target): Promise<Round> => {
      const c = t.config;
      const before = await redisTotals(redis);
      const tripsBefore = c.redisPrefix ? await redisRoundTrips(c) : 0;
      const pgBefore = c.pg ? pgTotals() : undefined;
      const r = await run(t);
      const after = await redisTotals(redis);
      const tripsAfter = c.redisPrefix ? await redisRoundTrips(c) : 0;
      const pgAfter = c.pg ? pgTotals() : undefined;
      return {
        ...r,
        // The INFO command itself is one of them.
        redisCommands: c.redisPrefix ? after.commands - before.commands - 1 : undefined,
        redisRoundTrips: c.redisPrefix ? tripsAfter - tripsBefore : undefined,
        redisBytes: c.redisPrefix ? after.bytes - before.bytes : undefined,
        pgCommits: pgBefore && pgAfter ? pgAfter.commits - pgBefore.commits : undefined,
        pgRowsWritten: pgBefore && pgAfter ? pgAfter.rows - pgBefore.rows : undefined,
      };
    };

    say(`warm-up: ${targets.length} targets, ${SECONDS} s each`);
    for (const t of targets) await run(t);
    const rounds = new Map<string, Round[]>(targets.map((t) => [t.name, []]));
    for (let i = 0; i < ROUNDS; i++)
      for (const t of roundOrder(targets, i)) {
        const r = await measure(t);
        rounds.get(t.name)!.push(r);
        say(`round ${i + 1} ${t.name}: ${(r.calls / r.seconds).toFixed(0)} calls/s, p50 ${percentile(r.latenciesMs, 50).toFixed(2)} ms, errors ${r.errors}`);
      }
    const dead = [...configs.flatMap((c) => c.nodes), mock].filter((s: Service) => !s.alive());
    if (dead.length > 0) throw new Error(`died during the run: ${dead.map((s) => `${s.name} (${s.exitStatus()})`).join(", ")}`);
    writeReport(targets, rounds, cores.description);
  } finally {
    redis.close();
    await stopAll();
    ownRedis.kill();
    rmSync(work, { recursive: true, force: true });
  }
}

function writeReport(targets: Target[], rounds: Map<string, Round[]>, pinning: string): void {
  const ctx = runContext();
  const summary = targets.map((t) => {
    const rs = rounds.get(t.name)!;
    const per = (f: (r: Round) => number | undefined) => {
      const v = rs.map(f).filter((x): x is number => x !== undefined);
      return v.length > 0 ? median(v) : undefined;
    };
    return {
      name: t.config.name,
      workload: t.workload,
      rps: per((r) => r.calls / r.seconds)!,
      rpsRange: [Math.min(...rs.map((r) => r.calls / r.seconds)), Math.max(...rs.map((r) => r.calls / r.seconds))],
      p50: per((r) => percentile(r.latenciesMs, 50))!,
      p99: per((r) => percentile(r.latenciesMs, 99))!,
      errors: rs.reduce((s, r) => s + r.errors, 0),
      redisCommands: per((r) => (r.redisCommands === undefined ? undefined : r.redisCommands / r.calls)),
      redisRoundTrips: per((r) => (r.redisRoundTrips === undefined ? undefined : r.redisRoundTrips / r.calls)),
      redisBytes: per((r) => (r.redisBytes === undefined ? undefined : r.redisBytes / r.calls)),
      pgCommits: per((r) => (r.pgCommits === undefined ? undefined : r.pgCommits / r.calls)),
      pgRows: per((r) => (r.pgRowsWritten === undefined ? undefined : r.pgRowsWritten / r.calls)),
    };
  });
  const f = (v: number | undefined, d = 2) => (v === undefined ? "—" : v.toFixed(d));
  const lines = [
    `# Scale-out: 1 node against 2, SQLite, Redis${pgStore ? ", PostgreSQL" : ""} (${ctx.date.slice(0, 10)})`,
    "",
    `\`nice -n 10 bun bench/scale-out.ts --rounds ${ROUNDS} --seconds ${SECONDS} --concurrency ${CONCURRENCY}\` at ${ctx.commit}${ctx.dirty ? " (uncommitted changes)" : ""}.`,
    `Machine: ${ctx.cpuModel}, **${ctx.cores} cores, shared with other work while it ran**, ${ctx.memoryGiB.toFixed(1)} GiB, Bun ${ctx.bun}. ${pinning}.`,
    "",
    `${CONCURRENCY} concurrent clients, each one call after another (round robin over a configuration's nodes): the pure relay`,
    "(`svc_options` all false, `gpt-4o-mini`, a live key on a plan of 10⁹ calls), and the same call held to a budget (a",
    "reservation before the provider and a settle after, per call; in the store without Redis, in Redis with it), against a",
    "mock upstream answering at once.",
    `Medians over ${ROUNDS} interleaved rounds of ${SECONDS} s. Redis is this run's own \`redis-server\` (no persistence); its`,
    "round trips are the nodes' `svc_redis_commands_total` (a Lua script is one), its commands executed (script bodies",
    "included) and bytes INFO's counters over each round, all divided by the calls answered.",
    "",
    "| workload | configuration | calls/s | rounds' range | vs SQLite 1 node | p50 ms | p99 ms | added p50 ms vs SQLite 1 node | errors | Redis round trips/call | Redis commands executed/call | Redis bytes/call | PG commits/call | PG rows written/call |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...summary.map((s) => {
      const base = summary.find((b) => b.workload === s.workload)!;
      return `| ${s.workload} | ${s.name} | ${s.rps.toFixed(0)} | ${s.rpsRange.map((x) => x.toFixed(0)).join("–")} | ${(s.rps / base.rps).toFixed(2)}× | ${f(s.p50)} | ${f(s.p99)} | ${f(s.p50 - base.p50)} | ${s.errors} | ${f(s.redisRoundTrips, 3)} | ${f(s.redisCommands, 3)} | ${f(s.redisBytes, 0)} | ${f(s.pgCommits, 3)} | ${f(s.pgRows, 3)} |`;
    }),
    "",
    "A range much wider than the differences between configurations means the machine's other work decided them, not the",
    "configuration: with a live key far from its quota, Redis sees one script per lease (1/64 of what is left, at most",
    "1,000 calls), so the per-call path of one node with Redis is the path without it.",
    "",
    "Two nodes here share the servers' one core with the mock, so their throughput shows what running two processes and",
    "sharing state costs, not what a second machine adds; see docs/deploy.md for the capacity model.",
    "",
  ];
  mkdirSync(args.out!, { recursive: true });
  const file = join(args.out!, `${ctx.date.slice(0, 10)}-scale-out.md`);
  writeFileSync(file, lines.join("\n"));
  say(lines.join("\n"));
  say(`written: ${file}`);
}

await main();
