import { describe, expect, test } from "bun:test";
import { dropInRig, SDKS } from "./support";

/**
 * Upstream errors as the SDKs see them through svc: status, type, code and message kept, Retry-After kept,
 * and retries that do not multiply (svc retries, then says x-should-retry: false).
 */
const rig = dropInRig({ SVC_TEST_KEY_DAILY_CALLS: "1" });
let n = 0;
const messages = () => [{ role: "user" as const, content: `Summarise the plot of Hamlet (${++n})` }];

describe.each(SDKS)("$name", ({ make }) => {
  test("an upstream 400 context_length_exceeded stays a 400 with its code, and is not retried", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    rig.openai.failNext(1, 400, undefined, {
      error: {
        message: "This model's maximum context length is 128000 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    });
    const before = rig.openai.requests.length;
    const err = (await client.chat.completions.create({ model: "gpt-4o-mini", messages: messages() }).catch((e) => e)) as any;
    expect(err.status).toBe(400);
    expect(err.code).toBe("context_length_exceeded");
    expect(err.type).toBe("invalid_request_error");
    expect(err.param).toBe("messages");
    expect(err.message).toContain("maximum context length is 128000 tokens");
    expect(err.error.request_id).toMatch(/^svc_req_/);
    expect(rig.openai.requests.length - before).toBe(1);
  });

  test("an upstream 429 stays a 429 with its Retry-After", async () => {
    const client = make(rig.baseURL, rig.admin.key, { maxRetries: 0 });
    // 30 s is beyond what svc waits itself (10 s), so it hands the wait to the client.
    rig.openai.failNext(1, 429, "30", { error: { message: "Rate limit reached for gpt-4o-mini", type: "requests", param: null, code: "rate_limit_exceeded" } });
    const err = (await client.chat.completions.create({ model: "gpt-4o-mini", messages: messages() }).catch((e) => e)) as any;
    expect(err.status).toBe(429);
    expect(err.code).toBe("rate_limit_exceeded");
    expect(err.headers.get("retry-after")).toBe("30");
  });

  test("retries do not multiply: svc's three attempts, then x-should-retry: false stops the SDK's", async () => {
    const client = make(rig.baseURL, rig.admin.key); // default maxRetries (2)
    rig.openai.failNext(20, 503);
    const before = rig.openai.requests.length;
    const err = (await client.chat.completions.create({ model: "gpt-4o-mini", messages: messages() }).catch((e) => e)) as any;
    const made = rig.openai.requests.length - before;
    rig.openai.reset();
    expect(err.status).toBe(502);
    expect(err.headers.get("x-should-retry")).toBe("false");
    expect(made).toBe(3); // was 9: 3 SDK tries x 3 gateway attempts
  });
});

test("the daily limit's 429 does not make openai v6 sleep until midnight", async () => {
  const key = await rig.gw.cliKey(["--type", "test"]);
  for (let i = 0; i < 50; i++) {
    const r = await fetch(`${rig.baseURL}/models`, { headers: { authorization: `Bearer ${key.key}` } });
    if (r.status === 200) break;
    await Bun.sleep(20);
  }
  // v6 with default settings (two retries); the counting fetch only sees what it sends.
  let sent = 0;
  const client = SDKS[1].make(rig.baseURL, key.key, { fetch: (url, init) => (sent++, fetch(url, init)) });
  await client.chat.completions.create({ model: "gpt-4o-mini", messages: messages() });
  sent = 0;
  const err = (await client.chat.completions.create({ model: "gpt-4o-mini", messages: messages() }).catch((e) => e)) as any;
  // One request and no retry: a retry would first sleep the Retry-After (or until midnight without the cap).
  expect(sent).toBe(1);
  expect(err.status).toBe(429);
  expect(err.headers.get("x-should-retry")).toBe("false");
  expect(Number(err.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  expect(err.message).toContain("resets at");
}, 20_000);
