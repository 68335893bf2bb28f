import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { RedisClient } from "bun";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { startOpenAIMock } from "../mocks/openai-mock";
import type { MockProvider } from "../mocks/mock-server";
import { call, runCli, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { REDIS_URL, requires } from "../support/services";
import { freshDatabase } from "../support/pg-database";
import postgres from "postgres";
import { waitForKey } from "../support/wait";
import { bodyFor, CALL_MICROS, six } from "../completions/support";

/**
 * Three gateway processes on one store and one Redis, each run under a fresh key prefix so runs never
 * see each other's counters: once on a shared SQLite data directory (one machine), once on a PostgreSQL
 * database of this file's own with a data directory (journal) and node id per node, as nodes on
 * separate machines run. Polling for key changes is slowed to a minute, so a revocation reaching the
 * other nodes in time is Redis's pub/sub doing it, not the poll.
 */
const haveRedis = await requires("redis");
const havePg = await requires("postgres");
type Dialect = "sqlite" | "postgres";

interface Cluster {
  nodes: GatewayProcess[];
  openai: MockProvider;
  admin: KeyCreated;
  prefix: string;
  /** The request ids the shared store's ledger holds. */
  ledgerIds(): Promise<Set<string>>;
  drop(): Promise<void>;
}

async function startCluster(n: number, dialect: Dialect): Promise<Cluster> {
  const openai = startOpenAIMock({ apiKey: "sk-mock-openai" });
  const prefix = `svc-test-${randomBytes(6).toString("hex")}`;
  const pg = dialect === "postgres" ? await freshDatabase("multi_node") : undefined;
  const env: Record<string, string> = pg ? { SVC_DATABASE_URL: pg.url, SVC_SECRET: randomBytes(32).toString("hex") } : {};
  const shared = {
    OPENAI_API_KEY: "sk-mock-openai",
    OPENAI_BASE_URL: `${openai.url}/v1`,
    SVC_PROVIDER_RETRIES: "0",
    SVC_REDIS_URL: REDIS_URL,
    SVC_REDIS_PREFIX: prefix,
    SVC_KEY_SYNC_MS: "60000",
    SVC_WORKERS: "0",
    ...env,
  };
  const first = await startGateway({ ...shared, SVC_NODE_ID: "node-0" });
  const others = await Promise.all(
    Array.from({ length: n - 1 }, (_, i) =>
      pg ? startGateway({ ...shared, SVC_NODE_ID: `node-${i + 1}` }) : startGateway(shared, { dataDir: first.dataDir }),
    ),
  );
  const nodes = [first, ...others];
  const admin = await first.cliKey(["--admin"]);
  await Promise.all(nodes.map((g) => waitForKey(g.url, admin.key)));
  const client = pg && postgres(pg.url, { max: 1, onnotice: () => undefined });
  return {
    nodes,
    openai,
    admin,
    prefix,
    ledgerIds: async () =>
      client ? new Set((await client<{ request_id: string }[]>`SELECT request_id FROM usage_ledger`).map((r) => r.request_id)) : sqliteLedgerIds(first.dataDir),
    drop: async () => {
      await client?.end();
      await pg?.drop();
    },
  };
}

async function stopCluster(c: Cluster): Promise<void> {
  for (const g of c.nodes.slice(1)) g.proc.kill("SIGTERM");
  await Promise.all(c.nodes.slice(1).map((g) => g.finished()));
  await c.nodes[0]!.stop();
  c.openai.stop();
  await c.drop();
  // This run's keys only (its own prefix): never a FLUSHDB on a Redis others may use.
  const redis = new RedisClient(REDIS_URL);
  try {
    const keys = (await redis.send("KEYS", [`${c.prefix}:*`])) as string[];
    if (keys.length > 0) await redis.send("DEL", keys);
  } finally {
    redis.close();
  }
}

function sqliteLedgerIds(dataDir: string): Set<string> {
  const db = new Database(join(dataDir, "svc.db"), { readonly: true });
  try {
    return new Set(
      db
        .query<{ request_id: string }, []>("SELECT request_id FROM usage_ledger")
        .all()
        .map((r) => r.request_id),
    );
  } finally {
    db.close();
  }
}

async function budgetOf(url: string, key: string, id: string) {
  for (let i = 0; ; i++) {
    const b = (await (await call(`${url}/api/budgets/${id}`, key)).json()) as { spent_usd: number; reserved_usd: number; limit_usd: number };
    if (b.reserved_usd === 0 || i === 400) return b;
    await Bun.sleep(50);
  }
}

for (const dialect of ["sqlite", "postgres"] as const)
  describe.skipIf(!haveRedis || (dialect === "postgres" && !havePg))(`three gateway nodes over one store (${dialect}) and Redis`, () => {
    let c: Cluster;
    beforeAll(async () => {
      c = await startCluster(3, dialect);
    }, 120_000);
    afterAll(() => stopCluster(c), 60_000);
    const node = (i: number) => c.nodes[i % c.nodes.length]!;

    test("150 concurrent calls on a test key spread over the nodes: exactly 100 succeed", async () => {
      const testKey = await node(0).cliKey(["--type", "test"]);
      await Promise.all(c.nodes.map((g) => waitForKey(g.url, testKey.key)));
      // Every node warmed up first (another key), so a node's first call does not lose the race by its start-up alone.
      await Promise.all(
        c.nodes.flatMap((g, n) => Array.from({ length: 5 }, (_, i) => call(`${g.url}/v1/complete`, c.admin.key, { body: bodyFor(six(900 + 10 * n + i)) }))),
      );
      const results = await Promise.all(
        Array.from({ length: 150 }, (_, i) => call(`${node(i).url}/v1/complete`, testKey.key, { body: bodyFor(six(i)) }).then((r) => r.status)),
      );
      expect(results.filter((s) => s === 200).length).toBe(100);
      expect(results.filter((s) => s === 429).length).toBe(50);
      // The 100 were counted across nodes: more than one answered some (each got 50 of the 150).
      const answering = [0, 1, 2].filter((n) => results.some((s, i) => s === 200 && i % 3 === n));
      expect(answering.length).toBeGreaterThanOrEqual(2);
    }, 120_000);

    test("500 budgeted calls spread over the nodes never overspend", async () => {
      const limitUsd = (CALL_MICROS * 150) / 1e6;
      const created = await call(`${node(0).url}/api/budgets`, c.admin.key, { body: { name: "scale", limit_usd: limitUsd, period: "total" } });
      const b = (await created.json()) as { id: string };
      const results = await Promise.all(
        Array.from({ length: 500 }, (_, i) =>
          call(`${node(i).url}/v1/complete`, c.admin.key, { body: bodyFor(six(1000 + i), { budget_id: b.id }) }).then((r) => r.status),
        ),
      );
      const ok = results.filter((s) => s === 200).length;
      const counts: Record<number, number> = {};
      for (const s of results) counts[s] = (counts[s] ?? 0) + 1;
      expect(counts).toEqual({ 200: ok, 402: 500 - ok });
      expect(ok).toBeGreaterThan(50);
      const after = await budgetOf(node(1).url, c.admin.key, b.id);
      expect(after.reserved_usd).toBe(0);
      expect(after.spent_usd).toBeLessThanOrEqual(limitUsd);
      expect(Math.round(after.spent_usd * 1e6)).toBe(ok * CALL_MICROS);
    }, 180_000);

    test("agent runs across the nodes: 120 concurrent calls on a run of max_calls 40 get exactly 40; a run's cost limit holds under concurrency", async () => {
      const put = (id: string, body: unknown) => call(`${node(1).url}/api/agent-runs/${id}`, c.admin.key, { method: "PUT", body });
      const counted = `calls-${c.prefix}`;
      expect((await put(counted, { max_calls: 40 })).status).toBe(200);
      const results = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          call(`${node(i).url}/v1/complete`, c.admin.key, { body: bodyFor(six(3000 + i), { agent_run_id: counted }) }).then(
            async (r) => [r.status, await r.json()] as const,
          ),
        ),
      );
      expect(results.filter(([s]) => s === 200).length).toBe(40);
      expect(results.filter(([s, b]) => s === 429 && (b as { error: { code: string } }).error.code === "AGENT_GUARD").length).toBe(80);
      const run = (await (await call(`${node(2).url}/api/agent-runs/${counted}`, c.admin.key)).json()) as { calls: number; status: string; cost_usd: number };
      expect(run).toMatchObject({ calls: 40, status: "tripped" });
      // The cost joins the run after each answer's turn: settled within moments on every node.
      for (let i = 0; i < 100 && Math.round(run.cost_usd * 1e6) < 40 * CALL_MICROS; i++) {
        await Bun.sleep(50);
        Object.assign(run, await (await call(`${node(0).url}/api/agent-runs/${counted}`, c.admin.key)).json());
      }
      expect(Math.round(run.cost_usd * 1e6)).toBe(40 * CALL_MICROS);

      const capped = `cost-${c.prefix}`;
      const maxUsd = (CALL_MICROS * 30) / 1e6;
      expect((await put(capped, { max_cost_usd: maxUsd })).status).toBe(200);
      const spent = await Promise.all(
        Array.from({ length: 150 }, (_, i) =>
          call(`${node(i).url}/v1/complete`, c.admin.key, { body: bodyFor(six(4000 + i), { agent_run_id: capped }) }).then((r) => r.status),
        ),
      );
      const ok = spent.filter((s) => s === 200).length;
      expect(spent.filter((s) => s !== 200).every((s) => s === 429)).toBe(true);
      expect(ok).toBeGreaterThan(0);
      // Settles and given-back admissions (the calls refused at the cost limit) land within moments of the answers.
      let after = { cost_usd: 0, calls: -1 };
      for (let i = 0; i < 100 && (Math.round(after.cost_usd * 1e6) !== ok * CALL_MICROS || after.calls !== ok); i++) {
        if (i > 0) await Bun.sleep(50);
        after = (await (await call(`${node(2).url}/api/agent-runs/${capped}`, c.admin.key)).json()) as typeof after;
      }
      expect(Math.round(after.cost_usd * 1e6)).toBe(ok * CALL_MICROS);
      expect(after.cost_usd).toBeLessThanOrEqual(maxUsd);
      expect(after.calls).toBe(ok);
    }, 180_000);

    test("a key revoked on one node is refused by the others within 1 s", async () => {
      const k = await node(0).cliKey(["--admin"]);
      await Promise.all(c.nodes.map((g) => waitForKey(g.url, k.key)));
      for (const g of c.nodes) expect((await call(`${g.url}/v1/models`, k.key)).status).toBe(200);
      const revoked = await call(`${node(0).url}/api/keys/${k.id}`, c.admin.key, { method: "DELETE" });
      expect(revoked.status).toBe(200);
      const at = Date.now();
      const refusedAfter = await Promise.all(
        c.nodes.slice(1).map(async (g) => {
          while ((await call(`${g.url}/v1/models`, k.key)).status !== 401) {
            if (Date.now() - at > 5000) return Number.POSITIVE_INFINITY;
            await Bun.sleep(20);
          }
          return Date.now() - at;
        }),
      );
      for (const ms of refusedAfter) expect(ms).toBeLessThan(1000);
    }, 60_000);

    test("a key revoked by the CLI (on the store, with SVC_REDIS_URL) is refused by every node within 1 s", async () => {
      const k = await node(0).cliKey(["--admin"]);
      await Promise.all(c.nodes.map((g) => waitForKey(g.url, k.key)));
      const revoked = await runCli(["keys", "revoke", k.id, "--json"], node(0).env);
      expect(revoked.code).toBe(0);
      const at = Date.now();
      for (const g of c.nodes) {
        while ((await call(`${g.url}/v1/models`, k.key)).status !== 401 && Date.now() - at < 5000) await Bun.sleep(20);
        expect(Date.now() - at).toBeLessThan(1000);
      }
    }, 60_000);

    test("a cache entry written by one node is hit on another", async () => {
      const body = bodyFor("What is the capital city of France, in one word?", { cache: true });
      const first = await call(`${node(0).url}/v1/complete`, c.admin.key, { body });
      expect(first.status).toBe(200);
      expect(((await first.json()) as any).svc_meta.cache_hit).toBe(false);
      // The entry goes out after the answer (one script: stream and pub/sub), and arrives within milliseconds.
      await Bun.sleep(200);
      const upstream = c.openai.requests.length;
      for (const g of c.nodes.slice(1)) {
        let hit = false;
        for (let i = 0; i < 50 && !hit; i++) {
          const r = await call(`${g.url}/v1/complete`, c.admin.key, { body });
          hit = ((await r.json()) as any).svc_meta.cache_hit === true;
          if (!hit) await Bun.sleep(20);
        }
        expect(hit).toBe(true);
      }
      expect(c.openai.requests.length).toBe(upstream);
    }, 60_000);

    test("identical concurrent misses on different nodes make one upstream call", async () => {
      c.openai.latencyMs = 400;
      try {
        const body = bodyFor("Name three primary colours, comma separated.", { cache: true });
        const before = c.openai.requests.length;
        const answers = await Promise.all(c.nodes.map((g) => call(`${g.url}/v1/complete`, c.admin.key, { body }).then((r) => r.json() as any)));
        expect(c.openai.requests.length - before).toBe(1);
        expect(new Set(answers.map((a) => a.choices[0].message.content)).size).toBe(1);
        expect(answers.filter((a) => a.svc_meta.cache_hit).length).toBe(2);
      } finally {
        c.openai.latencyMs = 0;
      }
    }, 60_000);

    test("a node waiting on a killed node's coalesced miss calls upstream itself once the leader's lease lapses, well before the 30 s timeout", async () => {
      const victim = c.nodes[2]!;
      const body = bodyFor("Name the four seasons, comma separated.", { cache: true });
      const before = c.openai.requests.length;
      // The leader's upstream call never answers: only its death ends it.
      c.openai.hang = true;
      const leaderCall = call(`${victim.url}/v1/complete`, c.admin.key, { body }).catch(() => undefined);
      for (let i = 0; i < 200 && c.openai.requests.length === before; i++) await Bun.sleep(25);
      expect(c.openai.requests.length).toBe(before + 1);
      c.openai.hang = false;
      const waiter = call(`${node(0).url}/v1/complete`, c.admin.key, { body });
      // The waiter finds the claim (no upstream call of its own while the leader lives).
      await Bun.sleep(1_000);
      expect(c.openai.requests.length).toBe(before + 1);
      victim.proc.kill("SIGKILL");
      await victim.finished();
      await leaderCall;
      const answered = await Promise.race([waiter.then((r) => r.json() as Promise<any>), Bun.sleep(20_000).then(() => "still waiting" as const)]);
      expect(answered).toMatchObject({ svc_meta: { cache_hit: false } });
      expect(c.openai.requests.length).toBe(before + 2);
      c.nodes[2] = await startGateway(victim.env, { dataDir: victim.dataDir });
      await waitForKey(c.nodes[2].url, c.admin.key);
    }, 90_000);

    test("a node killed with kill -9 mid-load: no answered call missing from the ledger, no budget overspent", async () => {
      const limitUsd = (CALL_MICROS * 120) / 1e6;
      const b = (await (await call(`${node(0).url}/api/budgets`, c.admin.key, { body: { name: "kill", limit_usd: limitUsd, period: "total" } })).json()) as {
        id: string;
      };
      c.openai.latencyMs = 50;
      const answered: string[] = [];
      const send = (i: number) =>
        call(`${node(i).url}/v1/complete`, c.admin.key, { body: bodyFor(six(5000 + i), { budget_id: b.id }) })
          .then((r) => {
            if (r.status === 200) answered.push(r.headers.get("x-request-id")!);
            return r.status;
          })
          .catch(() => 0);
      const load = Promise.all(Array.from({ length: 300 }, (_, i) => Bun.sleep(i * 3).then(() => send(i))));
      await Bun.sleep(300);
      const victim = c.nodes[2]!;
      victim.proc.kill("SIGKILL");
      await victim.finished();
      await load;
      c.openai.latencyMs = 0;
      // A restart on the same store replays the dead node's journal and settles its reservations.
      c.nodes[2] = await startGateway(victim.env, { dataDir: victim.dataDir });
      await waitForKey(c.nodes[2].url, c.admin.key);
      expect(answered.length).toBeGreaterThan(20);
      // The live nodes' rows reach the store at their next flushes.
      let missing: string[] = answered;
      for (let i = 0; i < 100 && missing.length > 0; i++) {
        const ledger = await c.ledgerIds();
        missing = answered.filter((id) => !ledger.has(id));
        if (missing.length > 0) await Bun.sleep(100);
      }
      expect(missing).toEqual([]);
      const after = await budgetOf(node(0).url, c.admin.key, b.id);
      expect(after.reserved_usd).toBe(0);
      expect(after.spent_usd).toBeLessThanOrEqual(limitUsd);
    }, 180_000);
  });
