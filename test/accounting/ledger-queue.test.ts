import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger, type LedgerRow, type RejectedRow } from "../../src/accounting/ledger";
import { LedgerJournal } from "../../src/accounting/ledger-journal";
import { bind, COLUMN_NAMES, prepareLedgerInserts, WIDTH } from "../../src/accounting/ledger-sql";
import type { LedgerWriter } from "../../src/accounting/ledger-writer";
import { openStore } from "../../src/store/db";

/**
 * The ledger's queue against a writer of the test's own (issue 33: each behaviour below had no test that
 * failed when it broke — found by mutation testing, `npm run mutation accounting`).
 */
const row = (i: number, over: Partial<LedgerRow> = {}): LedgerRow => ({
  requestId: `svc_req_q${i}`,
  keyId: "key_a",
  appId: "app",
  model: "gpt-4o-mini",
  modelRequested: "gpt-4o-mini",
  provider: "openai",
  promptTokens: 10,
  completionTokens: 5,
  originalTokens: 20,
  costOriginalUsd: 0.002,
  costActualUsd: 0.001,
  savedUsd: 0.001,
  cacheHit: false,
  status: 200,
  latencyMs: 12,
  overheadMs: 1,
  stream: false,
  createdAt: Date.UTC(2026, 10, 26, 12),
  ...over,
});

/** A writer that records what it was handed; `write` answers with `answer(rows)` (its rejected rows, or a throw). */
function fakeWriter(answer: (rows: LedgerRow[]) => Promise<RejectedRow[]> = async () => []) {
  const writes: string[][] = [];
  const replays: string[][] = [];
  let closed = 0;
  const writer: LedgerWriter = {
    write: (rows) => {
      writes.push(rows.map((r) => r.requestId));
      return answer(rows);
    },
    replay: async (rows) => {
      replays.push(rows.map((r) => r.requestId));
    },
    close: async () => {
      closed++;
    },
  };
  return { writer, writes, replays, closed: () => closed };
}

const tmpJournal = () => new LedgerJournal(join(mkdtempSync(join(tmpdir(), "svc-ledger-q-")), "journal"), 4242, () => false);

describe("Ledger's queue", () => {
  test("recovery without a journal, or with one that holds nothing, replays nothing", async () => {
    const f = fakeWriter();
    expect(await new Ledger(f.writer, undefined).recover()).toBe(0);
    expect(await new Ledger(f.writer, tmpJournal()).recover()).toBe(0);
    expect(f.replays).toEqual([]);
  });

  test("a flush with nothing queued hands the writer nothing", async () => {
    const f = fakeWriter();
    await new Ledger(f.writer, undefined).flush();
    expect(f.writes).toEqual([]);
  });

  test("a flush asked for during a flush waits for it, then writes the rows recorded meanwhile", async () => {
    let release: () => void = () => {};
    const first = new Promise<void>((r) => (release = r));
    const f = fakeWriter(async (rows) => {
      if (rows[0]!.requestId === "svc_req_q1") await first;
      return [];
    });
    const ledger = new Ledger(f.writer, undefined);
    ledger.record(row(1));
    const one = ledger.flush();
    ledger.record(row(2));
    const two = ledger.flush();
    await Promise.resolve();
    expect(f.writes).toEqual([["svc_req_q1"]]);
    release();
    await two;
    await one;
    expect(f.writes).toEqual([["svc_req_q1"], ["svc_req_q2"]]);
    expect(ledger.pending).toBe(0);
  });

  test("without a journal or an onRejected listener, a refused row is dropped from the queue and the rest stored", async () => {
    const f = fakeWriter(async (rows) => rows.filter((r) => r.requestId === "svc_req_q2").map((r) => ({ requestId: r.requestId, reason: "UNIQUE" })));
    const ledger = new Ledger(f.writer, undefined);
    ledger.record(row(1));
    ledger.record(row(2));
    await ledger.flush();
    expect(ledger.pending).toBe(0);
    expect(ledger.healthy).toBe(true);
    const told: RejectedRow[][] = [];
    const listened = new Ledger(f.writer, undefined, { onRejected: (r) => told.push(r) });
    listened.record(row(2));
    await listened.flush();
    expect(told).toEqual([[{ requestId: "svc_req_q2", reason: "UNIQUE" }]]);
    expect(listened.healthy).toBe(true);
  });

  test("drain writes the rows recorded while it flushed", async () => {
    let ledger: Ledger | undefined;
    const f = fakeWriter(async (rows) => {
      // A call settled while the first batch was written.
      if (rows[0]!.requestId === "svc_req_q1") ledger!.record(row(2));
      return [];
    });
    ledger = new Ledger(f.writer, undefined);
    ledger.record(row(1));
    await ledger.drain();
    expect(f.writes).toEqual([["svc_req_q1"], ["svc_req_q2"]]);
    expect(ledger.pending).toBe(0);
  });

  test("close drains the queue and closes the writer", async () => {
    const f = fakeWriter();
    const ledger = new Ledger(f.writer, tmpJournal());
    ledger.record(row(1));
    await ledger.close();
    expect(f.writes).toEqual([["svc_req_q1"]]);
    expect(f.closed()).toBe(1);
  });

  test("past the backlog bound the problem names the rows waiting and why: the store's error, or busy", async () => {
    const busy = new Ledger(fakeWriter().writer, undefined, { maxBacklog: 2 });
    busy.record(row(1));
    expect(busy.problem).toBeUndefined();
    busy.record(row(2));
    expect(busy.problem).toBe("2 usage rows wait for the store (busy)");
    const failing = new Ledger(
      fakeWriter(async () => {
        throw new Error("disk full");
      }).writer,
      undefined,
      { maxBacklog: 2 },
    );
    failing.record(row(1));
    failing.record(row(2));
    await failing.flush();
    expect(failing.problem).toBe("2 usage rows wait for the store (disk full)");
  });
});

describe("the ledger's SQL", () => {
  test("bind writes a row's values in column order, booleans as 0/1 and absent values as NULL", () => {
    const into: unknown[] = new Array(WIDTH + 1).fill("untouched");
    bind(row(1, { cacheHit: true, stream: false, budgetId: undefined, errorCode: null }), into, 1);
    expect(into[0]).toBe("untouched");
    const at = (column: string) => into[1 + COLUMN_NAMES.indexOf(column)];
    expect([at("cache_hit"), at("stream"), at("budget_id"), at("error_code"), at("request_id"), at("prompt_tokens")]).toEqual([
      1,
      0,
      null,
      null,
      "svc_req_q1",
      10,
    ]);
  });

  test("the daily rollup takes the rows a batch stored, and a replay adds only the rows the store did not hold", () => {
    const store = openStore(mkdtempSync(join(tmpdir(), "svc-ledger-q-")));
    const inserts = prepareLedgerInserts(store.sqlite);
    const calls = () => (store.sqlite.query("SELECT calls, original_tokens FROM usage_daily").all() as { calls: number; original_tokens: number }[])[0];
    inserts.all([row(1), row(2)]);
    expect(calls()).toEqual({ calls: 2, original_tokens: 40 });
    inserts.replay([row(2), row(3), row(4)]);
    expect(calls()).toEqual({ calls: 4, original_tokens: 80 });
    store.close();
  });
});
