import { describe, expect, test } from "bun:test";
import http from "node:http";
import { call } from "../support/gateway-process";
import { rigPerFile } from "../completions/support";
import { nestingDepth, MAX_JSON_DEPTH } from "../../src/http/body";
import { addressBlock } from "../../src/http/playground/address-block";

// Issue 23, items 7 and 8: client mistakes are 4xx in the error shape; the unauthenticated playground
// cannot starve keyed calls.

const rig = rigPerFile({ SVC_PLAYGROUND_PER_MINUTE: "5", SVC_PLAYGROUND_MAX_BYTES: "16384" });
// A gateway whose playground allowance is no limit at all, to flood it beside keyed calls.
const open = rigPerFile({ SVC_PLAYGROUND_PER_MINUTE: "1000000" });

/** JSON text nested `depth` objects deep (as text: JSON.stringify itself overflows the stack on it). */
function nestedText(depth: number): string {
  return '{"properties":{"x":'.repeat(depth) + '{"type":"string"}' + "}}".repeat(depth);
}

function nested(depth: number): unknown {
  return JSON.parse(nestedText(depth));
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { error: { code: string; message: string; request_id: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toMatch(/^svc_req_/);
  return body.error;
}

/** POST from a chosen loopback source address (the server sees it as the client's). */
function postFrom(localAddress: string, url: string, body: string): Promise<{ status: number; text: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: "POST", localAddress, headers: { "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("client mistakes are 4xx in the error shape", () => {
  test("nesting depth is counted without recursion and stops at the limit", () => {
    expect(nestingDepth({ a: [1, { b: 2 }] }, 64)).toBe(3);
    expect(nestingDepth("text", 64)).toBe(0);
    expect(nestingDepth(nested(10_000), 64)).toBe(MAX_JSON_DEPTH + 1);
  });

  for (const field of ["tools", "tool_choice", "response_format"]) {
    test(`JSON nested 20,000 deep in ${field} is a 400 that names the limit, not a 500`, async () => {
      const deep = field === "tools" ? `[{"type":"function","function":{"name":"f","parameters":${nestedText(20_000)}}}]` : nestedText(20_000);
      const body = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"${field}":${deep}}`;
      const res = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body });
      const e = await expectError(res, 400, "VALIDATION_ERROR");
      expect(e.message).toContain(`nested more than ${MAX_JSON_DEPTH} levels`);
    });
  }

  test("a prompt no model's context holds is a 400 naming the window, not a 503 NO_PROVIDER", async () => {
    // Prompt plus max_tokens is what must fit; the mock OpenAI's models hold 128,000 tokens.
    const res = await call(`${rig.gw.url}/v1/complete`, rig.admin.key, {
      body: { model: "auto", max_tokens: 1_000_000, messages: [{ role: "user", content: "Summarise the history of Rome." }] },
    });
    const e = await expectError(res, 400, "VALIDATION_ERROR");
    expect(e.message).toContain("more than any available model holds (at most");
  });

  test("deep nesting on the unauthenticated playground is a 400 too", async () => {
    const res = await call(`${rig.gw.url}/v1/playground`, undefined, {
      body: `{"messages":[{"role":"user","content":"hi"}],"tool_choice":${nestedText(600)}}`,
    });
    await expectError(res, 400, "VALIDATION_ERROR");
  });

  test("a declared Content-Length of 100 MB is a 413 in the error shape, without the body being sent", async () => {
    const u = new URL(`${rig.gw.url}/v1/complete`);
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: "POST",
          headers: { "content-type": "application/json", "content-length": String(100 * 1024 * 1024), authorization: `Bearer ${rig.admin.key}` },
        },
        (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write("{");
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text).error.code).toBe("PAYLOAD_TOO_LARGE");
  });

  // Bun's parser would answer anything over 16 KiB with a bare 431 before svc saw it; svc raises the
  // parser's cap (PARSER_FLAG) and answers its own limits in the error shape.
  test("a 100 KB header is a 431 in the error shape; a header just under the limit passes", async () => {
    const big = await call(`${rig.gw.url}/v1/models`, rig.admin.key, { headers: { "x-junk": "a".repeat(100_000) } });
    const err = await expectError(big, 431, "HEADERS_TOO_LARGE");
    expect(err.message).toContain("16384");
    const fits = await call(`${rig.gw.url}/v1/models`, rig.admin.key, { headers: { "x-junk": "a".repeat(15_000) } });
    expect(fits.status).toBe(200);
  });

  test("a 100 KB URL is a 414 in the error shape, on a known route and an unknown one", async () => {
    for (const path of ["/v1/models", "/nowhere"]) {
      const res = await call(`${rig.gw.url}${path}?q=${"a".repeat(100_000)}`, rig.admin.key);
      await expectError(res, 414, "URI_TOO_LONG");
    }
    const fits = await call(`${rig.gw.url}/v1/models?q=${"a".repeat(7_000)}`, rig.admin.key);
    expect(fits.status).toBe(200);
  });
});

describe("the playground's limits", () => {
  test("address blocks: a /24, a /64 and all of loopback are one client", () => {
    expect(addressBlock("127.0.0.2")).toBe(addressBlock("127.0.0.11"));
    expect(addressBlock("::1")).toBe(addressBlock("127.0.0.1"));
    expect(addressBlock("::ffff:10.0.0.9")).toBe(addressBlock("10.0.0.200"));
    expect(addressBlock("10.0.1.1")).not.toBe(addressBlock("10.0.0.1"));
    expect(addressBlock("2001:db8:0:1::1")).toBe(addressBlock("2001:db8:0:1:ffff::2"));
    expect(addressBlock("2001:db8:0:2::1")).not.toBe(addressBlock("2001:db8:0:1::1"));
  });

  test("a prompt over the playground's size limit is a 413", async () => {
    const res = await call(`${rig.gw.url}/v1/playground`, undefined, { body: { messages: [{ role: "user", content: "x".repeat(20_000) }] } });
    await expectError(res, 413, "PAYLOAD_TOO_LARGE");
  });

  test("ten loopback addresses share one allowance", async () => {
    const body = JSON.stringify({ messages: [{ role: "user", content: "Please write a haiku about the sea." }] });
    const statuses: number[] = [];
    for (let i = 2; i < 12; i++) statuses.push((await postFrom(`127.0.0.${i}`, `${rig.gw.url}/v1/playground`, body)).status);
    // SVC_PLAYGROUND_PER_MINUTE is 5 for this file, and two earlier playground calls in this file used two.
    expect(statuses.filter((s) => s === 200).length).toBe(3);
    expect(statuses.filter((s) => s === 429).length).toBe(7);
  });
});

describe("a playground flood beside keyed calls", () => {
  test("keyed calls that need the CPU stages all succeed while four clients flood the playground with its largest prompts", async () => {
    const sentence = "Hi there! I was wondering if you could possibly help me summarise the quarterly report on regional sales. ";
    const big = JSON.stringify({ messages: [{ role: "user", content: sentence.repeat(Math.floor(60_000 / sentence.length)) }] });
    let flooding = true;
    const playground: number[] = [];
    const flood = Array.from({ length: 4 }, async () => {
      while (flooding) playground.push((await call(`${open.gw.url}/v1/playground`, undefined, { body: big })).status);
    });
    const keyed: number[] = [];
    for (let round = 0; round < 5; round++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          call(`${open.gw.url}/v1/complete`, open.admin.key, {
            body: { model: "auto", messages: [{ role: "user", content: `Please could you explain how a heat pump works, part ${round}-${i}?` }] },
          }),
        ),
      );
      keyed.push(...batch.map((r) => r.status));
    }
    flooding = false;
    await Promise.all(flood);
    expect(keyed).toEqual(Array(50).fill(200));
    // The flood was served as far as one slot allows and refused beyond it, never queued.
    expect(playground.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(playground.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(playground.every((s) => s === 200 || s === 503)).toBe(true);
  }, 60_000);
});
