import { describe, expect, test } from "bun:test";
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Database } from "bun:sqlite";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../src/store/db";
import { Ledger, type LedgerRow } from "../../src/accounting/ledger";
import { inlineWriter, threadWriter } from "../../src/accounting/ledger-writer";
import { LedgerJournal } from "../../src/accounting/ledger-journal";

function row(i: number): LedgerRow {
  return {
    requestId: `svc_req_${String(i).padStart(6, "0")}`,
    keyId: "key_a",
    appId: "app",
    model: i % 3 === 0 ? null : "gpt-4o-mini",
    modelRequested: "gpt-4o-mini",
    provider: i % 3 === 0 ? null : "openai",
    promptTokens: i,
    completionTokens: 2 * i,
    originalTokens: 3 * i,
    costOriginalUsd: i / 1e6,
    costActualUsd: i / 2e6,
    savedUsd: i / 2e6,
    cacheHit: i % 2 === 0,
    status: i % 3 === 0 ? 502 : 200,
    errorCode: i % 3 === 0 ? "UPSTREAM_ERROR" : null,
    latencyMs: i + 0.5,
    overheadMs: 0.25,
    stream: i % 5 === 0,
    budgetId: i % 7 === 0 ? "b1" : null,
    conversationId: undefined,
    agentRunId: i % 11 === 0 ? "run" : null,
    createdAt: 1_700_000_000_000 + i,
    savedCompressionUsd: i / 4e6,
    savedRoutingUsd: i / 4e6,
    savedCacheUsd: 0,
    savedPromptCacheUsd: 0,
    // Absent, as in a row journaled before the per-source columns existed.
    savedConversationUsd: i % 13 === 0 ? undefined : 0,
  };
}

/** A fresh store and the journal folder beside it. */
function storeWithJournal() {
  const dir = mkdtempSync(join(tmpdir(), "svc-ledger-"));
  return { store: openStore(dir), root: join(dir, "journal") };
}

describe("ledger", () => {
  // 123 rows: two full multi-row statements and 23 written one by one, all in one flush.
  test("a flush writes every queued row, column for column, booleans as 0/1 and absent values as NULL", async () => {
    const store = openStore(mkdtempSync(join(tmpdir(), "svc-ledger-")));
    const ledger = new Ledger(inlineWriter(store), undefined);
    const rows = Array.from({ length: 123 }, (_, i) => row(i));
    for (const r of rows) ledger.record(r);
    expect(ledger.pending).toBe(123);
    await ledger.flush();
    expect(ledger.pending).toBe(0);
    const stored = store.sqlite.query("SELECT * FROM usage_ledger ORDER BY request_id").all() as Record<string, unknown>[];
    expect(stored.length).toBe(123);
    for (const [i, s] of stored.entries()) {
      const r = rows[i]!;
      expect(s).toEqual({
        request_id: r.requestId,
        key_id: r.keyId,
        app_id: r.appId,
        model: r.model ?? null,
        model_requested: r.modelRequested,
        provider: r.provider ?? null,
        prompt_tokens: r.promptTokens,
        completion_tokens: r.completionTokens,
        original_tokens: r.originalTokens,
        cost_original_usd: r.costOriginalUsd,
        cost_actual_usd: r.costActualUsd,
        saved_usd: r.savedUsd,
        cache_hit: r.cacheHit ? 1 : 0,
        status: r.status,
        error_code: r.errorCode ?? null,
        latency_ms: r.latencyMs,
        overhead_ms: r.overheadMs,
        stream: r.stream ? 1 : 0,
        budget_id: r.budgetId ?? null,
        conversation_id: null,
        agent_run_id: r.agentRunId ?? null,
        created_at: r.createdAt,
        saved_compression_usd: r.savedCompressionUsd,
        saved_routing_usd: r.savedRoutingUsd,
        saved_cache_usd: 0,
        saved_prompt_cache_usd: 0,
        saved_conversation_usd: r.savedConversationUsd ?? null,
      });
    }
    store.close();
  });

  test("reaching the batch size flushes on its own", async () => {
    const store = openStore(mkdtempSync(join(tmpdir(), "svc-ledger-")));
    const ledger = new Ledger(inlineWriter(store), undefined, { batchSize: 60 });
    for (let i = 0; i < 61; i++) ledger.record(row(i));
    await Promise.resolve();
    expect(ledger.pending).toBe(1);
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(60);
    store.close();
  });

  test("a row the store refuses (a second row for one request id) costs only itself, is kept aside, and the caller is told", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-ledger-"));
    const store = openStore(dir);
    const told: { requestId: string; reason: string }[][] = [];
    const journal = new LedgerJournal(join(dir, "journal"));
    const ledger = new Ledger(inlineWriter(store), journal, { onRejected: (rows) => told.push(rows) });
    for (let i = 0; i < 120; i++) ledger.record(row(i));
    ledger.record({ ...row(7), status: 499 });
    await ledger.flush();
    const stored = store.sqlite.query("SELECT request_id, status FROM usage_ledger ORDER BY request_id").all() as { request_id: string; status: number }[];
    expect(stored.map((r) => r.request_id)).toEqual(Array.from({ length: 120 }, (_, i) => row(i).requestId));
    expect(stored[7]!.status).toBe(row(7).status);
    expect(told).toEqual([[{ requestId: row(7).requestId, reason: expect.stringContaining("UNIQUE") }]]);
    const kept = readFileSync(join(dir, "journal", "rejected.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(kept).toEqual([{ reason: expect.stringContaining("UNIQUE"), row: JSON.parse(JSON.stringify({ ...row(7), status: 499 })) }]);
    // The next batch goes in as usual.
    ledger.record(row(200));
    await ledger.flush();
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(121);
    store.close();
  });

  test("when the store itself fails, recording never throws, nothing is dropped, and the rows go in once it is back", async () => {
    const store = openStore(mkdtempSync(join(tmpdir(), "svc-ledger-")));
    const errors: number[] = [];
    const ledger = new Ledger(inlineWriter(store), undefined, { batchSize: 3, maxBacklog: 5, onStoreError: (_, pending) => errors.push(pending) });
    store.sqlite.run("ALTER TABLE usage_ledger RENAME TO usage_ledger_away");
    expect(() => {
      for (let i = 0; i < 3; i++) ledger.record(row(i));
    }).not.toThrow();
    await ledger.flush();
    expect(errors.length).toBeGreaterThan(0);
    expect(ledger.pending).toBe(3);
    expect(ledger.healthy).toBe(false);
    // Still under the backlog bound: calls are admitted while the rows wait.
    expect(ledger.problem).toBeUndefined();
    for (let i = 3; i < 5; i++) ledger.record(row(i));
    await ledger.flush();
    expect(ledger.problem).toContain("5 usage rows wait for the store");
    store.sqlite.run("ALTER TABLE usage_ledger_away RENAME TO usage_ledger");
    await ledger.flush();
    expect(ledger.healthy).toBe(true);
    expect(ledger.problem).toBeUndefined();
    const ids = (store.sqlite.query("SELECT request_id FROM usage_ledger ORDER BY request_id").all() as { request_id: string }[]).map((r) => r.request_id);
    expect(ids).toEqual([0, 1, 2, 3, 4].map((i) => row(i).requestId));
    store.close();
  });

  test("a batch the store committed but never acknowledged is not refused when it is retried; a real second row still is", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-ledger-"));
    const store = openStore(dir);
    const inner = inlineWriter(store);
    let dropAck = true;
    // The commit happens, then the connection drops before its answer: what a lost PostgreSQL ack looks like.
    const writer = {
      ...inner,
      write: async (rows: LedgerRow[]) => {
        const refused = await inner.write(rows);
        if (dropAck) {
          dropAck = false;
          throw new Error("connection closed before the commit's answer");
        }
        return refused;
      },
    };
    const told: { requestId: string; reason: string }[][] = [];
    const ledger = new Ledger(writer, new LedgerJournal(join(dir, "journal")), { onRejected: (rows) => told.push(rows) });
    for (let i = 0; i < 4; i++) ledger.record(row(i));
    ledger.record({ ...row(2), status: 499 });
    await ledger.flush();
    expect(ledger.pending).toBe(5);
    await ledger.flush();
    expect(ledger.pending).toBe(0);
    expect(ledger.healthy).toBe(true);
    // Four stored once; the genuine second row for row 2 is the only refusal, as on a first attempt.
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(4);
    expect(told.map((t) => t.map((r) => r.requestId))).toEqual([[row(2).requestId]]);
    const kept = readFileSync(join(dir, "journal", "rejected.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(kept.map((l) => JSON.parse(l).row.status)).toEqual([499]);
    store.close();
  });

  test("a journal that cannot be written makes the ledger refuse new calls until it can; the rows are kept in memory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-ledger-"));
    const store = openStore(dir);
    // A file where the journal's folder should be: every append fails, as on a full or read-only disk.
    writeFileSync(join(dir, "journal"), "");
    const ledger = new Ledger(inlineWriter(store), new LedgerJournal(join(dir, "journal")));
    await ledger.record(row(1));
    expect(ledger.problem).toContain("usage journal cannot be written");
    expect(ledger.healthy).toBe(false);
    await ledger.flush();
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(1);
    rmSync(join(dir, "journal"));
    // The next flush finds the journal writable again, with no call needed to find out.
    await ledger.flush();
    expect(ledger.problem).toBeUndefined();
    await ledger.record(row(2));
    expect(ledger.problem).toBeUndefined();
    store.close();
  });

  test("rows journaled by a process that died are written at the next start, once, and its journal is removed", async () => {
    const { store, root } = storeWithJournal();
    // A process (pid 999999, not alive) journaled 4 rows and stored the first 2 before it was killed.
    const dead = new Ledger(inlineWriter(store), new LedgerJournal(root, 999_999, () => false));
    dead.record(row(1));
    await dead.record(row(2));
    await dead.flush();
    dead.record(row(3));
    await dead.record(row(4));
    expect(readdirSync(join(root, "999999")).length).toBe(1);
    // A live neighbour's journal is its own business.
    const neighbour = new LedgerJournal(root, 4242, () => true);
    neighbour.append(JSON.stringify(row(5)));
    const next = new Ledger(inlineWriter(store), new LedgerJournal(root, 1234, (pid) => pid === 4242));
    expect(await next.recover()).toBe(2);
    const ids = (store.sqlite.query("SELECT request_id FROM usage_ledger ORDER BY request_id").all() as { request_id: string }[]).map((r) => r.request_id);
    expect(ids).toEqual([1, 2, 3, 4].map((i) => row(i).requestId));
    expect(readdirSync(root).sort()).toEqual(["4242"]);
    // A second recovery finds nothing left to write.
    expect(await new Ledger(inlineWriter(store), new LedgerJournal(root, 1234, (pid) => pid === 4242)).recover()).toBe(0);
    store.close();
  });

  test("the rows recorded in one turn are journaled in one write, before the promise each record returns resolves", async () => {
    const { store, root } = storeWithJournal();
    const journal = new LedgerJournal(root, 55, () => false);
    const writes: string[] = [];
    const append = journal.append.bind(journal);
    journal.append = (json) => {
      writes.push(json);
      append(json);
    };
    const ledger = new Ledger(inlineWriter(store), journal);
    const journaled = [1, 2, 3].map((i) => ledger.record(row(i)));
    expect(writes).toEqual([]);
    await journaled[0];
    expect(writes).toHaveLength(1);
    const segment = join(root, "55", readdirSync(join(root, "55"))[0]!);
    expect(
      readFileSync(segment, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).requestId),
    ).toEqual([1, 2, 3].map((i) => row(i).requestId));
    await Promise.all(journaled);
    expect(writes).toHaveLength(1);
    // A process killed now leaves the three rows for the next start.
    expect(await new Ledger(inlineWriter(store), new LedgerJournal(root, 56, () => false)).recover()).toBe(3);
    store.close();
  });

  test("with no other call in flight a row is journaled at once, with any row of its turn still waiting", async () => {
    const { store, root } = storeWithJournal();
    const ledger = new Ledger(inlineWriter(store), new LedgerJournal(root, 57, () => false));
    let others = true;
    ledger.groupWhile(() => others);
    const first = ledger.record(row(1));
    expect(first).toBeInstanceOf(Promise);
    others = false;
    expect(ledger.record(row(2))).toBeUndefined();
    const segment = join(root, "57", readdirSync(join(root, "57"))[0]!);
    expect(readFileSync(segment, "utf8").trim().split("\n")).toHaveLength(2);
    await first;
    expect(readFileSync(segment, "utf8").trim().split("\n")).toHaveLength(2);
    store.close();
  });

  test("a journal line cut by the crash is skipped; the lines before it are replayed", async () => {
    const { store, root } = storeWithJournal();
    const journal = new LedgerJournal(root, 77, () => false);
    journal.append(JSON.stringify(row(1)));
    appendFileSync(join(root, "77", readdirSync(join(root, "77"))[0]!), JSON.stringify(row(2)).slice(0, 40));
    expect(await new Ledger(inlineWriter(store), new LedgerJournal(root, 78, () => false)).recover()).toBe(1);
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(1);
    store.close();
  });

  test("the writer thread writes on its own connection and reports a locked store without holding the caller", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-ledger-"));
    const store = openStore(dir);
    const ledger = new Ledger(threadWriter(join(dir, "svc.db"), 50), undefined);
    ledger.record(row(1));
    await ledger.flush();
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(1);
    // Another connection holds the write lock: the writer gives up after its busy timeout, the row waits.
    const other = new Database(join(dir, "svc.db"));
    other.run("BEGIN IMMEDIATE");
    ledger.record(row(2));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    await ledger.flush();
    clearInterval(ticker);
    // The event loop kept turning while the writer waited on the lock.
    expect(ticks).toBeGreaterThan(0);
    expect(ledger.pending).toBe(1);
    expect(ledger.healthy).toBe(false);
    other.run("COMMIT");
    other.close();
    await ledger.flush();
    expect(ledger.pending).toBe(0);
    expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(2);
    await ledger.close();
    store.close();
  });
});

/** The store with its `prepare` watched: how many times each prepared statement ran, by its row count. */
function countingStore() {
  const store = openStore(mkdtempSync(join(tmpdir(), "svc-ledger-")));
  const runs = new Map<number, number>();
  const prepare = store.sqlite.prepare.bind(store.sqlite);
  store.sqlite.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    // The ledger's own inserts; the daily rollup's upserts in the same transaction are not row writes.
    if (!sql.startsWith("INSERT INTO usage_ledger")) return stmt;
    const rowsPerRun = (sql.match(/\(\?/g) ?? []).length;
    const run = stmt.run.bind(stmt);
    stmt.run = ((...params: never[]) => {
      runs.set(rowsPerRun, (runs.get(rowsPerRun) ?? 0) + 1);
      return run(...params);
    }) as typeof stmt.run;
    return stmt;
  }) as typeof store.sqlite.prepare;
  return { store, runs };
}

describe("ledger batching", () => {
  // The batched statements are the point of the inserts (2.5 µs a row against 3.2 µs one by one); the
  // row-by-row path only rescues a batch the store refused, so it must not be what writes a healthy one.
  test("a healthy flush of 123 rows runs two 50-row statements and 23 single-row ones, nothing else", async () => {
    const { store, runs } = countingStore();
    const told: unknown[] = [];
    const ledger = new Ledger(inlineWriter(store), undefined, { onRejected: (rows) => told.push(rows) });
    for (let i = 0; i < 123; i++) ledger.record(row(i));
    await ledger.flush();
    expect(Object.fromEntries(runs)).toEqual({ 50: 2, 1: 23 });
    expect(told).toEqual([]);
    const ids = (store.sqlite.query("SELECT request_id FROM usage_ledger ORDER BY request_id").all() as { request_id: string }[]).map((r) => r.request_id);
    expect(ids).toEqual(Array.from({ length: 123 }, (_, i) => row(i).requestId));
    store.close();
  });

  test("exactly 100 rows are two 50-row statements; 49 rows are 49 single ones", async () => {
    for (const [n, expected] of [
      [100, { 50: 2 }],
      [49, { 1: 49 }],
    ] as const) {
      const { store, runs } = countingStore();
      const ledger = new Ledger(inlineWriter(store), undefined);
      for (let i = 0; i < n; i++) ledger.record(row(i));
      await ledger.flush();
      expect(Object.fromEntries(runs)).toEqual(expected);
      expect((store.sqlite.query("SELECT count(*) AS n FROM usage_ledger").get() as { n: number }).n).toBe(n);
      store.close();
    }
  });

  test("a flush with nothing queued runs no statement", async () => {
    const { store, runs } = countingStore();
    await new Ledger(inlineWriter(store), undefined).flush();
    expect(runs.size).toBe(0);
    store.close();
  });
});
