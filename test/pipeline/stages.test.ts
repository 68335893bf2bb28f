import { describe, expect, test } from "bun:test";
import type { KeyEntry } from "../../src/auth/key-record";
import type { QuotaTicket } from "../../src/auth/quota";
import type { ModelInfo } from "../../src/catalog/catalog";
import { ApiError } from "../../src/core/errors";
import type { LedgerRow } from "../../src/accounting/ledger";
import { Metrics } from "../../src/metrics/metrics";
import type { CacheFill } from "../../src/pipeline/cache";
import { openCall, type Call, type Outcome, type Priced } from "../../src/pipeline/call";
import type { CompletionRequest } from "../../src/pipeline/request";
import { admit, type Stage } from "../../src/pipeline/stage";
import { STAGES } from "../../src/pipeline/stages";
import { quotaStage } from "../../src/pipeline/stages/quota";
import { usageRecordableStage } from "../../src/pipeline/stages/usage-recordable";
import { cacheFillStage } from "../../src/pipeline/stages/cache-fill";
import { relay } from "../../src/pipeline/relay";
import { settle } from "../../src/pipeline/settle";
import type { StreamResult } from "../../src/providers/call";
import { ProviderError, type StreamEvent } from "../../src/providers/types";

const key = { id: "key_1", appId: "app_1", scopes: ["complete"], type: "test", plan: "free" } as KeyEntry;
const model = { id: "gpt-4o-mini", provider: "openai", tier: "small", input_usd_per_mtok: 0.15, output_usd_per_mtok: 0.6 } as unknown as ModelInfo;
const request = (stream = false): CompletionRequest => ({
  messages: [{ role: "user", content: "hi" }],
  model: "gpt-4o-mini",
  max_tokens: 10,
  stream,
  params: {},
  svc_options: {
    compress: false,
    route: false,
    cache: true,
    cache_nondeterministic: false,
    score: false,
    mask_pii: false,
    max_aggressiveness: 0.5,
    skip_rules: [],
    budget_id: "b1",
  },
});
const newCall = (stream = false): Call =>
  openCall(key, request(stream), { requestId: "svc_req_1", t0: performance.now(), signal: new AbortController().signal, route: "/v1/complete" });
const outcome = (cacheable = true): Outcome => ({
  served: model,
  choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 1 },
  reason: "explicit_model",
  cacheHit: false,
  upstreamMs: 3,
  simulated: false,
  cacheable,
});
const priced: Priced = {
  costs: {
    cost_original_usd: 2,
    cost_actual_usd: 1,
    saved_usd: 1,
    saved_by_source: { compression: 0.5, routing: 0.5, cache: 0, prompt_cache: 0, conversation: 0 },
  },
  savedTokens: { compression: 4, conversation: 0, cache: 0 },
  originalPromptTokens: 9,
  totalMs: 7,
  overheadMs: 4,
  meta: {} as Priced["meta"],
};

/** A fake of the ledger (what the settle asks for, with the real Metrics): keeps the rows it is given. */
function recorder() {
  const rows: LedgerRow[] = [];
  return { rows, services: { ledger: { record: (r: LedgerRow) => rows.push(r) } as never, metrics: new Metrics() } };
}

/** Stages that write what happens to them into one log. */
function logged(log: string[], name: string, refuse = false): Stage<string> {
  return {
    name,
    before: () => {
      if (refuse) throw new ApiError("QUOTA_EXCEEDED", `${name} refuses`);
      log.push(`before ${name}`);
      return `${name}-state`;
    },
    commit: (_c, _o, state) => void log.push(`commit ${state}`),
    rollback: (_c, _e, state) => void log.push(`rollback ${state}`),
  };
}

describe("the stage list", () => {
  test("a call the ledger cannot record is refused first, then quota is taken", () => {
    expect(STAGES[0]).toBe(usageRecordableStage);
    expect(STAGES[1]).toBe(quotaStage);
  });
});

describe("usage-recordable stage", () => {
  test("refuses with 503 STORE_UNAVAILABLE and Retry-After while the ledger has a problem, admits otherwise", async () => {
    const ledger = { problem: undefined as string | undefined };
    const stage = usageRecordableStage({ ledger: ledger as never }) as Stage;
    await admit(newCall(), [stage]);
    ledger.problem = "the usage journal cannot be written (ENOSPC)";
    // A refusal throws where the hooks answered at once, and rejects once one went asynchronous: caught either way.
    const e = await (async () => admit(newCall(), [stage]))().then(
      () => undefined,
      (x: unknown) => x as ApiError,
    );
    expect(e?.code).toBe("STORE_UNAVAILABLE");
    expect(e?.status).toBe(503);
    expect(e?.headers("r")["retry-after"]).toBe("5");
  });
});

describe("quota stage", () => {
  function fakeQuota() {
    const log: string[] = [];
    return {
      log,
      quota: {
        consume: (k: KeyEntry) => (log.push(`consume ${k.id}`), { keyId: k.id, period: "d:2026-11-26" }),
        refund: (t: QuotaTicket) => void log.push(`refund ${t.keyId} ${t.period}`),
      } as never,
    };
  }

  test("consumes at admission and refunds the same ticket on rollback", async () => {
    const q = fakeQuota();
    const call = newCall();
    await admit(call, [quotaStage(q) as Stage]);
    expect(q.log).toEqual(["consume key_1"]);
    settle(recorder().services, call, { kind: "failed", error: new ApiError("UPSTREAM_ERROR", "x") });
    expect(q.log).toEqual(["consume key_1", "refund key_1 d:2026-11-26"]);
  });

  test("keeps the call on commit", async () => {
    const q = fakeQuota();
    const call = newCall();
    await admit(call, [quotaStage(q) as Stage]);
    settle(recorder().services, call, { kind: "answered", path: "json", outcome: outcome(), priced });
    expect(q.log).toEqual(["consume key_1"]);
  });
});

describe("cache fill stage", () => {
  function fakeFill() {
    const log: unknown[] = [];
    return { log, fill: { complete: (a: unknown) => void log.push(a), fail: () => void log.push("fail") } as unknown as CacheFill };
  }

  test("hands a cacheable answer to the fill", async () => {
    const f = fakeFill();
    const call = newCall();
    await admit(call, [cacheFillStage()]);
    call.fill = f.fill;
    settle(recorder().services, call, { kind: "answered", path: "json", outcome: outcome(), priced });
    expect(f.log).toEqual([{ model: "gpt-4o-mini", choices: outcome().choices, usage: outcome().usage }]);
  });

  test("fails the fill for an answer it must not cache, and on rollback", async () => {
    for (const end of [
      { kind: "answered", path: "stream", outcome: outcome(false), priced },
      { kind: "partial", error: new Error("cut"), outcome: outcome(false), priced },
      { kind: "failed", error: new Error("x") },
    ] as const) {
      const f = fakeFill();
      const call = newCall();
      await admit(call, [cacheFillStage()]);
      call.fill = f.fill;
      settle(recorder().services, call, end);
      expect(f.log).toEqual(["fail"]);
    }
  });

  test("does nothing without a fill (a hit, or the cache off)", async () => {
    const call = newCall();
    await admit(call, [cacheFillStage()]);
    expect(() => settle(recorder().services, call, { kind: "failed", error: new Error("x") })).not.toThrow();
  });
});

describe("admit", () => {
  const later = (log: string[], name: string, refuse = false): Stage<string> => ({
    name,
    before: async () => {
      await Bun.sleep(1);
      if (refuse) throw new ApiError("QUOTA_EXCEEDED", `${name} refuses`);
      log.push(`before ${name}`);
      return `${name}-state`;
    },
  });

  test("answers at once while every hook does, and holds each stage with its state in list order across an asynchronous one", async () => {
    const log: string[] = [];
    const call = newCall();
    expect(admit(call, [logged(log, "a"), logged(log, "b")])).toBeUndefined();
    const mixed = newCall();
    const admitting = admit(mixed, [logged(log, "c"), later(log, "d"), logged(log, "e")]);
    expect(admitting).toBeInstanceOf(Promise);
    expect(mixed.held.map((h) => h.state)).toEqual(["c-state"]);
    await admitting;
    expect(mixed.held.map((h) => [h.stage.name, h.state])).toEqual([
      ["c", "c-state"],
      ["d", "d-state"],
      ["e", "e-state"],
    ]);
    expect(log).toEqual(["before a", "before b", "before c", "before d", "before e"]);
  });

  test("an asynchronous refusal rejects, holding only the stages admitted before it", async () => {
    const log: string[] = [];
    const call = newCall();
    const refusal = await Promise.resolve(admit(call, [logged(log, "a"), later(log, "b", true), logged(log, "c")])).catch((e) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(call.held.map((h) => h.stage.name)).toEqual(["a"]);
    expect(log).toEqual(["before a"]);
  });
});

describe("settle", () => {
  test("commits in list order and writes one row, however often it is reached", async () => {
    const log: string[] = [];
    const { rows, services } = recorder();
    const call = newCall();
    await admit(call, [logged(log, "a"), logged(log, "b")]);
    settle(services, call, { kind: "answered", path: "json", outcome: outcome(), priced });
    settle(services, call, { kind: "failed", error: new Error("client gone after the last chunk") });
    expect(log).toEqual(["before a", "before b", "commit a-state", "commit b-state"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requestId: "svc_req_1",
      keyId: "key_1",
      appId: "app_1",
      model: "gpt-4o-mini",
      provider: "openai",
      promptTokens: 5,
      completionTokens: 1,
      originalTokens: 9,
      costActualUsd: 1,
      savedUsd: 1,
      status: 200,
      errorCode: null,
      latencyMs: 7,
      overheadMs: 4,
      budgetId: "b1",
      stream: false,
    });
  });

  test("rolls back in reverse order and records the failure", async () => {
    const log: string[] = [];
    const { rows, services } = recorder();
    const call = newCall(true);
    await admit(call, [logged(log, "a"), logged(log, "b")]);
    settle(services, call, { kind: "failed", error: new ApiError("UPSTREAM_TIMEOUT", "slow") });
    expect(log.slice(2)).toEqual(["rollback b-state", "rollback a-state"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: null, provider: null, promptTokens: 0, status: 504, errorCode: "UPSTREAM_TIMEOUT", stream: true, cacheHit: false });
  });

  test("a refusal at admission rolls back only the stages admitted before it and writes no row", async () => {
    const log: string[] = [];
    const { rows, services } = recorder();
    const call = newCall();
    const refusal = await (async () => admit(call, [logged(log, "a"), logged(log, "b", true), logged(log, "c")]))().catch((e) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    settle(services, call, { kind: "refused", error: refusal });
    expect(log).toEqual(["before a", "rollback a-state"]);
    expect(rows).toEqual([]);
  });
});

describe("stream hook", () => {
  async function* events(): AsyncGenerator<StreamEvent> {
    yield { kind: "delta", delta: { index: 0, delta: { content: "hel" }, finish_reason: null } };
    yield { kind: "delta", delta: { index: 0, delta: { content: "lo" }, finish_reason: "stop" } };
    yield { kind: "usage", usage: { prompt_tokens: 4, completion_tokens: 2 } };
  }
  const upper: Stage = {
    name: "upper",
    stream: () =>
      new TransformStream<StreamEvent, StreamEvent>({
        transform(ev, c) {
          c.enqueue(
            ev.kind === "delta" && ev.delta.delta.content
              ? { kind: "delta", delta: { ...ev.delta, delta: { content: ev.delta.delta.content.toUpperCase() } } }
              : ev,
          );
        },
      }),
  };

  test("a stage's transform rewrites what the relay sends and what the settle commits", async () => {
    const call = newCall(true);
    await admit(call, [upper]);
    call.plan = { opt: { messages: request().messages } as never, candidates: [model], requested: model, reason: "explicit_model" };
    const result = { model, provider: { simulated: false }, fallback: false, attempts: [], events: events(), upstreamMs: 1 } as unknown as StreamResult;
    let answered: Outcome | undefined;
    const body = relay(call, result, {
      answered: (o) => ((answered = o), { meta: {} as Priced["meta"], journaled: undefined }),
      partial: () => expect.unreachable(),
      failed: () => expect.unreachable(),
    });
    const text = await new Response(body).text();
    expect(text).toContain('"content":"HEL"');
    expect(text).toContain('"content":"LO"');
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    expect(answered?.choices[0]?.message.content).toBe("HELLO");
    expect(answered?.usage).toEqual({ prompt_tokens: 4, completion_tokens: 2 });
  });

  test("the stream's closing frames wait for the call's row to be journaled", async () => {
    const call = newCall(true);
    await admit(call, [upper]);
    call.plan = { opt: { messages: request().messages } as never, candidates: [model], requested: model, reason: "explicit_model" };
    const result = { model, provider: { simulated: false }, fallback: false, attempts: [], events: events(), upstreamMs: 1 } as unknown as StreamResult;
    let journal!: () => void;
    const journaled = new Promise<void>((resolve) => (journal = resolve));
    const reader = relay(call, result, {
      answered: () => ({ meta: {} as Priced["meta"], journaled }),
      partial: () => expect.unreachable(),
      failed: () => expect.unreachable(),
    }).getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (let i = 0; i < 2; i++) text += decoder.decode((await reader.read()).value);
    expect(text).toContain('"content":"LO"');
    const next = reader.read();
    // The provider's stream has ended; the last frames are held while the journal write is pending.
    expect(await Promise.race([next.then(() => "frame"), Bun.sleep(30).then(() => "held")])).toBe("held");
    journal();
    text += decoder.decode((await next).value);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  test("the client going away mid-stream ends the call once, as partial, with what was delivered", async () => {
    const call = newCall(true);
    await admit(call, [upper]);
    call.plan = { opt: { messages: request().messages } as never, candidates: [model], requested: model, reason: "explicit_model" };
    const result = { model, provider: { simulated: false }, fallback: false, attempts: [], events: events(), upstreamMs: 1 } as unknown as StreamResult;
    const ends: { error: unknown; out?: Outcome }[] = [];
    const reader = relay(call, result, {
      answered: () => expect.unreachable(),
      partial: (error, out) => void ends.push({ error, out }),
      failed: (error) => void ends.push({ error }),
    }).getReader();
    await reader.read();
    await reader.cancel();
    expect(ends).toHaveLength(1);
    expect((ends[0]!.error as ProviderError).kind).toBe("aborted");
    // Charged for the chunk it had: "HEL", counted (the provider's usage came after it), never cacheable.
    expect(ends[0]!.out?.choices[0]?.message.content).toBe("HEL");
    expect(ends[0]!.out?.usage.completion_tokens).toBeGreaterThan(0);
    expect(ends[0]!.out?.cacheable).toBe(false);
  });

  test("a stream cut before its first chunk is failed, not partial; one cut by the shutdown grace says so", async () => {
    const stopping = new AbortController();
    for (const [chunks, stopped] of [
      [0, false],
      [1, true],
    ] as const) {
      const call = newCall(true);
      call.plan = { opt: { messages: request().messages } as never, candidates: [model], requested: model, reason: "explicit_model" };
      const result = { model, provider: { simulated: false }, fallback: false, attempts: [], events: events(), upstreamMs: 1 } as unknown as StreamResult;
      const ends: string[] = [];
      const reader = relay(
        call,
        result,
        {
          answered: () => expect.unreachable(),
          partial: (e) => void ends.push(`partial ${(e as ApiError).code ?? (e as ProviderError).kind}`),
          failed: (e) => void ends.push(`failed ${(e as ProviderError).kind}`),
        },
        stopping.signal,
      ).getReader();
      for (let i = 0; i < chunks; i++) await reader.read();
      if (stopped) stopping.abort();
      await reader.cancel();
      expect(ends).toEqual([chunks === 0 ? "failed aborted" : "partial SHUTTING_DOWN"]);
    }
  });
});

describe("a partial stream at the settle", () => {
  test("commits (the quota keeps the call) and writes a priced row with the status of how it ended", async () => {
    const log: string[] = [];
    const { rows, services } = recorder();
    const call = newCall(true);
    await admit(call, [logged(log, "a")]);
    settle(services, call, { kind: "partial", error: new ProviderError("aborted", "client closed the stream"), outcome: outcome(false), priced });
    expect(log).toEqual(["before a", "commit a-state"]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 499, errorCode: "CLIENT_CLOSED", promptTokens: 5, completionTokens: 1, costActualUsd: 1, model: "gpt-4o-mini" });
  });

  test("a provider failing mid-stream is recorded with its own status, still charged", async () => {
    const { rows, services } = recorder();
    const call = newCall(true);
    settle(services, call, { kind: "partial", error: new ApiError("UPSTREAM_ERROR", "broke"), outcome: outcome(false), priced });
    expect(rows[0]).toMatchObject({ status: 502, errorCode: "UPSTREAM_ERROR", completionTokens: 1, costActualUsd: 1 });
  });
});
