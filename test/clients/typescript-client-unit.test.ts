import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { ERROR_CODES } from "../../src/core/errors";
import {
  AuthenticationError,
  BudgetExceededError,
  ClientClosedError,
  InternalServerError,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  SseParser,
  Svc,
  SvcConnectionError,
  SvcError,
  UpstreamError,
  errorFrom,
  parseRetryAfter,
  type SseEvent,
} from "../../clients/typescript/src/index.ts";

/** The family a status belongs to, stated independently of the client's code table. */
function familyOf(status: number): typeof SvcError {
  const byStatus: Record<number, typeof SvcError> = {
    401: AuthenticationError,
    402: BudgetExceededError,
    403: PermissionDeniedError,
    404: NotFoundError,
    429: RateLimitError,
    499: ClientClosedError,
    500: InternalServerError,
    502: UpstreamError,
    503: ServiceUnavailableError,
    504: UpstreamError,
  };
  return byStatus[status] ?? InvalidRequestError;
}

describe("every contract code maps to its class (the codes the server cannot produce on demand included)", () => {
  for (const [code, { status, type }] of Object.entries(ERROR_CODES)) {
    test(`${status} ${code}`, () => {
      const body = { error: { message: `m ${code}`, type, code, request_id: "svc_req_abc" } };
      const e = errorFrom(body, { status, requestId: "svc_req_header", retryAfter: "7" });
      expect(e).toBeInstanceOf(familyOf(status));
      expect(e).toBeInstanceOf(SvcError);
      expect(e).toMatchObject({ code, status, type, message: `m ${code}`, requestId: "svc_req_abc", retryAfter: 7 });
      expect(e.name).toBe(familyOf(status).name);
      // Inside a stream there is no status: the code alone gives it.
      expect(errorFrom(body)).toMatchObject({ code, status });
    });
  }

  test("an unknown code or a non-JSON body is classed by its status", () => {
    expect(errorFrom({ error: { code: "SOMETHING_NEW", message: "x" } }, { status: 429 })).toBeInstanceOf(RateLimitError);
    const html = errorFrom("<html>Bad Gateway</html>", { status: 502, requestId: "svc_req_h" });
    expect(html).toBeInstanceOf(UpstreamError);
    expect(html).toMatchObject({ code: "HTTP_502", requestId: "svc_req_h" });
    expect(html.message).toContain("Bad Gateway");
  });

  test("Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("120")).toBe(120);
    expect(parseRetryAfter(new Date(1_000_000 + 30_000).toUTCString(), 1_000_000)).toBe(30);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe("retries of 429 and 503", () => {
  // A real HTTP server answering in svc's error shape: the gateway cannot be made to answer a short
  // Retry-After on demand (its limits reset at midnight, at month end or after a minute).
  let plan: { status: number; retryAfter?: string; code: string }[] = [];
  const seen: number[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch() {
      seen.push(performance.now());
      const next = plan.shift();
      if (!next)
        return Response.json({ id: "svc_req_ok", object: "chat.completion", choices: [], svc_meta: {} }, { headers: { "x-request-id": "svc_req_ok" } });
      const headers: Record<string, string> = { "x-request-id": "svc_req_retry" };
      if (next.retryAfter) headers["retry-after"] = next.retryAfter;
      return Response.json(
        { error: { message: "busy", type: "rate_limit_error", code: next.code, request_id: "svc_req_retry" } },
        { status: next.status, headers },
      );
    },
  });
  afterAll(() => server.stop(true));
  const svc = (o: { maxRetries?: number; maxRetryDelayMs?: number } = {}) =>
    new Svc({ apiKey: "svc_test_x", baseURL: `http://127.0.0.1:${server.port}`, ...o });
  const run = async (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  test("Retry-After is waited for, then the call succeeds", async () => {
    plan = [
      { status: 429, retryAfter: "1", code: "RATE_LIMITED" },
      { status: 503, retryAfter: "1", code: "OVERLOADED" },
    ];
    seen.length = 0;
    const r = await svc().complete({ messages: [{ role: "user", content: "hi" }] });
    expect(r.id).toBe("svc_req_ok");
    expect(seen.length).toBe(3);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(950);
    expect(seen[2]! - seen[1]!).toBeGreaterThanOrEqual(950);
  });

  test("a Retry-After beyond the cap is not waited for", async () => {
    plan = [{ status: 429, retryAfter: "3600", code: "RATE_LIMITED" }];
    seen.length = 0;
    const e = (await run(svc().complete({ messages: [{ role: "user", content: "hi" }] }))) as SvcError;
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e.retryAfter).toBe(3600);
    expect(seen.length).toBe(1);
  });

  test("retries stop at maxRetries; AGENT_GUARD and other statuses are never retried", async () => {
    plan = [0, 1, 2, 3].map(() => ({ status: 503, retryAfter: "0", code: "NO_PROVIDER" }));
    seen.length = 0;
    expect(await run(svc({ maxRetries: 2 }).complete({ messages: [{ role: "user", content: "hi" }] }))).toBeInstanceOf(ServiceUnavailableError);
    expect(seen.length).toBe(3);
    for (const [status, code] of [
      [429, "AGENT_GUARD"],
      [502, "UPSTREAM_ERROR"],
      [500, "INTERNAL_ERROR"],
    ] as const) {
      plan = [{ status, retryAfter: "0", code }];
      seen.length = 0;
      expect(await run(svc().complete({ messages: [{ role: "user", content: "hi" }] }))).toMatchObject({ code });
      expect(seen.length).toBe(1);
    }
    plan = [];
  });

  test("no server at the address is a connection error naming it", async () => {
    const e = await run(new Svc({ apiKey: "svc_test_x", baseURL: "http://127.0.0.1:9" }).keys.list());
    expect(e).toBeInstanceOf(SvcConnectionError);
    expect((e as Error).message).toContain("127.0.0.1:9");
  });
});

describe("the SSE parser", () => {
  const field = fc.string({ unit: fc.constantFrom("a", "é", "😀", " ", ":", "{", "}", '"', "x") }).filter((s) => !s.startsWith(" "));
  const eventArb = fc.record({ event: fc.constantFrom("message", "error", "ping"), data: fc.array(field, { minLength: 1, maxLength: 3 }) });

  test("any split of the bytes and any line ending give the same events", () => {
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (events, eol, cuts, comments) => {
          let text = "";
          for (const e of events) {
            if (comments) text += `: keep-alive${eol}`;
            if (e.event !== "message") text += `event: ${e.event}${eol}`;
            for (const d of e.data) text += `data: ${d}${eol}`;
            text += eol;
          }
          const bytes = new TextEncoder().encode(text);
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const parser = new SseParser();
          const got: SseEvent[] = [];
          let prev = 0;
          for (const p of [...points, bytes.length]) {
            got.push(...parser.push(bytes.subarray(prev, p)));
            prev = p;
          }
          got.push(...parser.end());
          expect(got).toEqual(events.map((e) => ({ event: e.event, data: e.data.join("\n") })));
        },
      ),
      { numRuns: 500 },
    );
  });

  test("an unterminated last event is dropped; `data` without a colon is an empty line of data", () => {
    const p = new SseParser();
    expect(p.push(new TextEncoder().encode("data\ndata: x\n\ndata: cut"))).toEqual([{ event: "message", data: "\nx" }]);
    expect(p.end()).toEqual([]);
  });
});
