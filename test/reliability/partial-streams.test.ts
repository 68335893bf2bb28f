import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { OFF, rigPerFile, startRig, waitForKey } from "../completions/support";
import { call } from "../support/gateway-process";

// Issue 23, item 3: a stream that ends early is charged for what it delivered, with a status that says
// how it ended; the quota is refunded only when nothing was delivered. Before, a client that dropped
// one chunk before the end was recorded as 499 with 0 tokens and $0, and given its call back.

// A provider that never answers gives up after 3 s (one test relies on it, below).
const rig = rigPerFile({ SVC_PROVIDER_TIMEOUT_MS: "3000" });
// Items 6 and 9 through the gateway: a call's deadline of 1 s under a per-attempt timeout of 10 s, answers capped at 4 KiB.
const bounded = rigPerFile({ SVC_REQUEST_TIMEOUT_MS: "1000", SVC_PROVIDER_TIMEOUT_MS: "10000", SVC_UPSTREAM_MAX_BYTES: "4096" });
const hello = [{ role: "user", content: "Tell me about the rivers of Europe and their lengths, please." }];

function row(dataDir: string, requestId: string) {
  const db = new Database(join(dataDir, "svc.db"), { readonly: true });
  const r = db.query("SELECT status, error_code, completion_tokens, prompt_tokens, cost_actual_usd FROM usage_ledger WHERE request_id = ?").all(requestId) as {
    status: number;
    error_code: string | null;
    completion_tokens: number;
    prompt_tokens: number;
    cost_actual_usd: number;
  }[];
  db.close();
  return r;
}

function callsCounted(dataDir: string, keyId: string): number {
  const db = new Database(join(dataDir, "svc.db"), { readonly: true });
  const r = db.query("SELECT sum(calls) AS n FROM usage_counters WHERE key_id = ?").get(keyId) as { n: number | null };
  db.close();
  return r.n ?? 0;
}

async function rowOnceFlushed(dataDir: string, requestId: string) {
  for (let i = 0; i < 100; i++) {
    const r = row(dataDir, requestId);
    if (r.length > 0) return r;
    await Bun.sleep(50);
  }
  return row(dataDir, requestId);
}

/** Opens a stream and reads `frames` data frames, then drops the connection. */
async function readThenDrop(url: string, key: string, frames: number): Promise<string> {
  const ac = new AbortController();
  const res = await fetch(`${url}/v1/complete`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF }),
    signal: ac.signal,
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  while ((text.match(/^data: /gm) ?? []).length < frames) text += decoder.decode((await reader.read()).value, { stream: true });
  ac.abort();
  return res.headers.get("x-request-id")!;
}

describe("streams that end early are charged for what they delivered", () => {
  test("a client that drops the stream one chunk before the end: 499 with the delivered tokens and their cost, the call counted", async () => {
    const key = await rig.gw.cliKey(["--type", "test"]);
    await waitForKey(rig.gw.url, key.key);
    rig.openai.chunkDelayMs = 150;
    try {
      // The mock's answer here is 9 words; the relay sends one chunk a word.
      const id = await readThenDrop(rig.gw.url, key.key, 8);
      const [r] = await rowOnceFlushed(rig.gw.dataDir, id);
      expect(r).toMatchObject({ status: 499, error_code: "CLIENT_CLOSED" });
      expect(r!.completion_tokens).toBeGreaterThanOrEqual(7);
      expect(r!.prompt_tokens).toBeGreaterThan(0);
      expect(r!.cost_actual_usd).toBeGreaterThan(0);
      expect(callsCounted(rig.gw.dataDir, key.id)).toBe(1);
    } finally {
      rig.openai.chunkDelayMs = 0;
    }
  });

  test("a client that drops the stream before any chunk is 499 with nothing charged, and gets its call back", async () => {
    const key = await rig.gw.cliKey(["--type", "test"]);
    await waitForKey(rig.gw.url, key.key);
    // The provider never sends a byte, so no chunk can go out whenever the gateway notices the client
    // left: at the client's abort, or at the latest when the provider's 3 s timeout ends the attempt.
    rig.openai.hang = true;
    try {
      const before = rig.openai.requests.length;
      const ac = new AbortController();
      const pending = fetch(`${rig.gw.url}/v1/complete`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF }),
        signal: ac.signal,
      }).catch(() => undefined);
      while (rig.openai.requests.length === before) await Bun.sleep(10);
      expect(callsCounted(rig.gw.dataDir, key.id)).toBe(1);
      ac.abort();
      await pending;
      for (let i = 0; i < 200 && callsCounted(rig.gw.dataDir, key.id) !== 0; i++) await Bun.sleep(50);
      expect(callsCounted(rig.gw.dataDir, key.id)).toBe(0);
    } finally {
      rig.openai.hang = false;
    }
  });

  test("a provider failing mid-stream: 502 with the tokens delivered before it broke, charged", async () => {
    rig.openai.cutAfterChunks = 4;
    try {
      const res = await fetch(`${rig.gw.url}/v1/complete`, {
        method: "POST",
        headers: { authorization: `Bearer ${rig.admin.key}`, "content-type": "application/json" },
        body: JSON.stringify({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF }),
      });
      const id = res.headers.get("x-request-id")!;
      await res.text();
      const [r] = await rowOnceFlushed(rig.gw.dataDir, id);
      expect(r).toMatchObject({ status: 502, error_code: "UPSTREAM_ERROR" });
      expect(r!.completion_tokens).toBeGreaterThan(0);
      expect(r!.cost_actual_usd).toBeGreaterThan(0);
    } finally {
      rig.openai.cutAfterChunks = undefined;
    }
  });

  test("a stream cut by the gateway's own shutdown grace is recorded as SHUTTING_DOWN, not as the client's doing", async () => {
    const own = await startRig({ SVC_SHUTDOWN_GRACE_MS: "300" });
    own.openai.chunkDelayMs = 400;
    const res = await fetch(`${own.gw.url}/v1/complete`, {
      method: "POST",
      headers: { authorization: `Bearer ${own.admin.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: hello, stream: true, svc_options: OFF }),
    });
    const id = res.headers.get("x-request-id")!;
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    own.gw.proc.kill("SIGTERM");
    // The client keeps reading: it is the gateway that cuts the stream when its grace runs out.
    const drained = (async () => {
      try {
        while (!(await reader.read()).done);
      } catch {
        // the connection closed under it
      }
    })();
    expect(await own.gw.finished()).toBe(0);
    await drained;
    own.openai.stop();
    const [r] = row(own.gw.dataDir, id);
    expect(r).toMatchObject({ status: 503, error_code: "SHUTTING_DOWN" });
    expect(r!.completion_tokens).toBeGreaterThan(0);
  }, 60_000);
});

describe("calls ended by the deadline or the answer cap are answered in the error shape and recorded", () => {
  const complete = (stream: boolean) =>
    call(`${bounded.gw.url}/v1/complete`, bounded.admin.key, { body: { model: "gpt-4o-mini", messages: hello, stream, svc_options: OFF } });

  test("a hung provider: 504 at SVC_REQUEST_TIMEOUT_MS after one attempt, with its ledger row", async () => {
    bounded.openai.hang = true;
    try {
      const before = bounded.openai.requests.length;
      const t0 = performance.now();
      const res = await complete(false);
      // Before: three attempts of the 10 s per-attempt timeout.
      expect(performance.now() - t0).toBeLessThan(5_000);
      expect(bounded.openai.requests.length - before).toBe(1);
      expect(((await res.json()) as any).error.code).toBe("UPSTREAM_TIMEOUT");
      expect(res.status).toBe(504);
      expect(await rowOnceFlushed(bounded.gw.dataDir, res.headers.get("x-request-id")!)).toMatchObject([{ status: 504, error_code: "UPSTREAM_TIMEOUT" }]);
    } finally {
      bounded.openai.hang = false;
    }
  });

  test("a trickling stream is cut at the deadline: 504 with the tokens it delivered, charged", async () => {
    bounded.openai.chunkDelayMs = 300;
    try {
      const t0 = performance.now();
      const res = await complete(true);
      await res.text();
      expect(performance.now() - t0).toBeLessThan(2_500);
      const [r] = await rowOnceFlushed(bounded.gw.dataDir, res.headers.get("x-request-id")!);
      expect(r).toMatchObject({ status: 504, error_code: "UPSTREAM_TIMEOUT" });
      expect(r!.completion_tokens).toBeGreaterThan(0);
      expect(r!.cost_actual_usd).toBeGreaterThan(0);
    } finally {
      bounded.openai.chunkDelayMs = 0;
    }
  });

  test("an answer past SVC_UPSTREAM_MAX_BYTES is a 502, streamed or not, with its ledger row", async () => {
    bounded.openai.fixedText = "word ".repeat(1_000);
    try {
      const whole = await complete(false);
      expect(whole.status).toBe(502);
      expect(((await whole.json()) as any).error.message).toContain("larger than 4096 bytes");
      expect(await rowOnceFlushed(bounded.gw.dataDir, whole.headers.get("x-request-id")!)).toMatchObject([{ status: 502, error_code: "UPSTREAM_ERROR" }]);
      const streamed = await complete(true);
      expect(await streamed.text()).toContain("larger than 4096 bytes");
      const [r] = await rowOnceFlushed(bounded.gw.dataDir, streamed.headers.get("x-request-id")!);
      expect(r).toMatchObject({ status: 502, error_code: "UPSTREAM_ERROR" });
      expect(r!.completion_tokens).toBeGreaterThan(0);
    } finally {
      bounded.openai.fixedText = undefined;
    }
  });
});
