import { afterAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { Socket, TCPSocketListener } from "bun";
import { createServer } from "node:net";
import { Deadline } from "../../src/providers/shared/deadline";
import { pooledPost, type UpstreamResponse } from "../../src/providers/shared/pooled-http";

/** The plain-http client every provider uses for http:// upstreams, against real sockets. */

const servers: { stop(force?: boolean): void }[] = [];
afterAll(() => {
  for (const s of servers) s.stop(true);
});

/** A deadline far beyond any test, as the providers give every call. */
const never = () => new Deadline(600_000);

/** A Bun.serve upstream; `handler` sees each request with the client's port. */
function httpServer(handler: (req: Request, clientPort: number) => Response | Promise<Response>) {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => handler(req, srv.requestIP(req)!.port) });
  servers.push(server);
  return new URL(`http://127.0.0.1:${server.port}/v1/chat/completions`);
}

/** A raw TCP upstream that answers every request with `respond` (it sees the request's bytes). */
function rawServer(respond: (socket: Socket<{ seen: string }>, request: string) => void) {
  let connections = 0;
  const listener: TCPSocketListener<{ seen: string }> = Bun.listen<{ seen: string }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(socket) {
        connections++;
        socket.data = { seen: "" };
      },
      data(socket, data) {
        socket.data.seen += Buffer.from(data).toString("latin1");
        const headEnd = socket.data.seen.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(socket.data.seen)![1]);
        if (socket.data.seen.length < headEnd + 4 + length) return;
        const request = socket.data.seen;
        socket.data.seen = "";
        respond(socket, request);
      },
    },
  });
  servers.push(listener);
  return { url: new URL(`http://127.0.0.1:${listener.port}/v1/x`), connections: () => connections };
}

/**
 * Sends `answer` cut into packets at up to 8 points drawn by fast-check, 25 draws, checks each parsed
 * answer with `check`, and returns how many connections the draws used.
 */
async function everySplit(answer: Buffer, check: (res: UpstreamResponse) => Promise<void>): Promise<number> {
  let cuts: number[] = [];
  const server = rawServer(async (socket) => {
    let at = 0;
    for (const cut of [...cuts, answer.length]) {
      socket.write(answer.subarray(at, cut));
      socket.flush();
      at = cut;
      await Bun.sleep(1);
    }
  });
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: answer.length - 1 }), { maxLength: 8 }), async (points) => {
      cuts = points.sort((x, y) => x - y);
      await check(await pooledPost(server.url, {}, "{}", never()));
    }),
    { numRuns: 25 },
  );
  return server.connections();
}

describe("pooledPost", () => {
  test("sends the body and headers, reads status, headers and a JSON answer, and reuses the connection", async () => {
    const ports: number[] = [];
    const url = httpServer(async (req, port) => {
      ports.push(port);
      const body = (await req.json()) as { n: number };
      return Response.json({ n: body.n * 2, auth: req.headers.get("authorization"), path: new URL(req.url).pathname }, { headers: { "x-request-id": "abc" } });
    });
    for (let n = 1; n <= 5; n++) {
      const res = await pooledPost(url, { authorization: "Bearer k", "content-type": "application/json" }, JSON.stringify({ n }), never());
      expect(res.status).toBe(200);
      expect(res.ok).toBe(true);
      expect(res.headers.get("X-Request-Id")).toBe("abc");
      expect(JSON.parse(await res.text())).toEqual({ n: n * 2, auth: "Bearer k", path: "/v1/chat/completions" });
    }
    // Sequential calls go over one keep-alive connection: one client port.
    expect(new Set(ports).size).toBe(1);
  });

  test("an error status is a response like any other, with its headers", async () => {
    const url = httpServer(() => Response.json({ error: { message: "slow down" } }, { status: 429, headers: { "retry-after": "3" } }));
    const res = await pooledPost(url, {}, "{}", never());
    expect(res.ok).toBe(false);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(JSON.parse(await res.text())).toEqual({ error: { message: "slow down" } });
  });

  test("a streamed answer arrives chunk by chunk, before the server has finished", async () => {
    let finished = false;
    const url = httpServer(
      () =>
        new Response(
          new ReadableStream({
            async start(c) {
              for (let i = 0; i < 5; i++) {
                c.enqueue(new TextEncoder().encode(`data: ${i}\n\n`));
                await Bun.sleep(40);
              }
              finished = true;
              c.close();
            },
          }),
          { headers: { "content-type": "text/event-stream" } },
        ),
    );
    const res = await pooledPost(url, {}, "{}", never());
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: 0\n\n");
    expect(finished).toBe(false);
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n");
    expect(finished).toBe(true);
  });

  test("a request body of several megabytes is sent whole", async () => {
    const url = httpServer(async (req) => {
      const text = await req.text();
      return Response.json({ length: text.length, hash: Bun.hash(text).toString() });
    });
    const big = JSON.stringify({ content: "é word ".repeat(600_000) });
    const res = await pooledPost(url, {}, big, never());
    expect(JSON.parse(await res.text())).toEqual({ length: big.length, hash: Bun.hash(big).toString() });
  });

  test("any split of a chunked answer into packets parses to the same body", async () => {
    const payload = JSON.stringify({ choices: [{ message: { content: "héllo wörld ".repeat(20) } }] });
    const bytes = Buffer.from(payload);
    const chunked = Buffer.concat([
      Buffer.from("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"),
      Buffer.from(`${(100).toString(16)};ext=1\r\n`),
      bytes.subarray(0, 100),
      Buffer.from(`\r\n${(bytes.length - 100).toString(16)}\r\n`),
      bytes.subarray(100),
      Buffer.from("\r\n0\r\nx-trailer: t\r\n\r\n"),
    ]);
    // Every answer was complete and kept the connection open for the next request.
    expect(await everySplit(chunked, async (res) => expect(await res.text()).toBe(payload))).toBe(1);
  });

  test("any split of a Content-Length answer into packets, the head's included, parses to the same body", async () => {
    // A whole head in the first packet is framed by simpleHead and counted; a head cut across packets goes to http-parser-js.
    const payload = JSON.stringify({ choices: [{ message: { content: "héllo wörld ".repeat(20) } }] });
    const answer = Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
    expect(
      await everySplit(answer, async (res) => {
        expect(res.headers.get("Content-Type")).toBe("application/json");
        expect(await res.text()).toBe(payload);
      }),
    ).toBe(1);
  });

  test("an answer that ends when the server closes (no length, no chunking) is read to the close", async () => {
    const server = rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"ok":');
      setTimeout(() => socket.end("true}"), 20);
    });
    for (let i = 0; i < 2; i++) {
      const res = await pooledPost(server.url, {}, "{}", never());
      expect(JSON.parse(await res.text())).toEqual({ ok: true });
    }
    expect(server.connections()).toBe(2);
  });

  test("a kept connection the server closes instead of answering is replaced, and the call succeeds", async () => {
    // A server whose keep-alive ended just as our next request went out: it closes without a word.
    const answered = new WeakSet<object>();
    const server = rawServer((socket) => {
      if (answered.has(socket)) {
        socket.end();
        return;
      }
      answered.add(socket);
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{"ok":true}');
    });
    for (let i = 0; i < 3; i++) expect(await (await pooledPost(server.url, {}, "{}", never())).text()).toBe('{"ok":true}');
    expect(server.connections()).toBe(3);
  });

  test("a kept connection that takes the request and closes is retried once, on a fresh connection", async () => {
    // Each request that reaches the server may cost a generation: three idle connections must not make it four.
    let requests = 0;
    const answered = new WeakSet<object>();
    const server = rawServer((socket) => {
      requests++;
      if (answered.has(socket)) {
        socket.end();
        return;
      }
      answered.add(socket);
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{"ok":true}');
    });
    // Three calls at once leave three idle connections.
    await Promise.all([0, 1, 2].map(async () => (await pooledPost(server.url, {}, "{}", never())).text()));
    requests = 0;
    expect(await (await pooledPost(server.url, {}, "{}", never())).text()).toBe('{"ok":true}');
    expect(requests).toBe(2);
    expect(server.connections()).toBe(4);
  });

  test("a fresh connection closed without an answer is an error, not a retry loop", async () => {
    const server = rawServer((socket) => socket.end());
    const error = await pooledPost(server.url, {}, "{}", never()).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(error?.code).toBe("ECONNRESET");
    expect(server.connections()).toBe(1);
  });

  test("a connection closed in the middle of an answer is an ECONNRESET error, not a short answer", async () => {
    const server = rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"partial":');
      setTimeout(() => socket.end(), 20);
    });
    const res = await pooledPost(server.url, {}, "{}", never());
    const error = await res.text().then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(error?.code).toBe("ECONNRESET");
  });

  test("bytes past the end of an answer (a short content-length, a second answer) do not reach the next call", async () => {
    for (const extra of ["junk", "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nsta"]) {
      let n = 0;
      const server = rawServer((socket) => {
        socket.write(n++ === 0 ? `HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}${extra}` : 'HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{"ok":true}');
      });
      expect(await (await pooledPost(server.url, {}, "{}", never())).text()).toBe("{}");
      expect(await (await pooledPost(server.url, {}, "{}", never())).text()).toBe('{"ok":true}');
      expect(server.connections()).toBe(2);
    }
  });

  test("an answer that comes before the whole request was sent closes the connection: the rest of that request would go out ahead of the next", async () => {
    // A server that refuses a large body on sight, then reads past it (by its content-length) to the next request.
    let connections = 0;
    const server = createServer((socket) => {
      connections++;
      let buffered = Buffer.alloc(0);
      let skip = 0;
      socket.on("data", (data: Buffer) => {
        buffered = Buffer.concat([buffered, data]);
        while (true) {
          const dropped = Math.min(skip, buffered.length);
          buffered = buffered.subarray(dropped);
          skip -= dropped;
          const headEnd = buffered.indexOf("\r\n\r\n");
          if (skip > 0 || headEnd < 0) return;
          const length = Number(/content-length: (\d+)/i.exec(buffered.subarray(0, headEnd).toString("latin1"))![1]);
          if (length > 1_000_000) {
            socket.write("HTTP/1.1 413 Payload Too Large\r\ncontent-length: 0\r\n\r\n");
            // Not reading for a while lets the client's send buffer fill, so the answer overtakes the request.
            socket.pause();
            setTimeout(() => socket.resume(), 100);
            buffered = buffered.subarray(headEnd + 4);
            skip = length;
            continue;
          }
          if (buffered.length < headEnd + 4 + length) return;
          const body = buffered.subarray(headEnd + 4, headEnd + 4 + length).toString();
          buffered = buffered.subarray(headEnd + 4 + length);
          socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        }
      });
    });
    servers.push({ stop: () => server.close() });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/v1/x`);
    const refused = await pooledPost(url, {}, JSON.stringify({ content: "é".repeat(4_000_000) }), never());
    expect(refused.status).toBe(413);
    expect(await refused.text()).toBe("");
    const next = await pooledPost(url, {}, '{"next":"é"}', new Deadline(2_000));
    expect(await next.text()).toBe('{"next":"é"}');
    expect(connections).toBe(2);
  });

  test("large answers keep their connection, and do not count against the size limit of the next answer's head", async () => {
    const big = "x".repeat(200_000);
    let n = 0;
    const server = rawServer(async (socket) => {
      if (n++ < 3) {
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${big.length}\r\n\r\n${big}`);
        return;
      }
      // A head of 20 kB that arrives in two reads, well under the 80 kB limit.
      socket.write(`HTTP/1.1 200 OK\r\nx-a: ${"a".repeat(10_000)}\r\n`);
      socket.flush();
      await Bun.sleep(20);
      socket.write(`x-b: ${"b".repeat(10_000)}\r\ncontent-length: 2\r\n\r\n{}`);
    });
    for (let i = 0; i < 3; i++) expect((await (await pooledPost(server.url, {}, "{}", never())).text()).length).toBe(big.length);
    expect(await (await pooledPost(server.url, {}, "{}", never())).text()).toBe("{}");
    expect(server.connections()).toBe(1);
  });

  test("a head that does not end is an error once it passes 80 kB", async () => {
    const server = rawServer(async (socket) => {
      socket.write("HTTP/1.1 200 OK\r\nx-a: ");
      for (let i = 0; i < 20; i++) {
        socket.write("a".repeat(10_000));
        socket.flush();
        await Bun.sleep(5);
      }
    });
    const error = await pooledPost(server.url, {}, "{}", never()).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(error?.code).toBe("EPROTO");
  });

  test("a 1xx, 204 or 304 ends with its head, whatever content-length or transfer-encoding it carries", async () => {
    const answers: [string, string][] = [
      ["HTTP/1.1 204 No Content\r\ntransfer-encoding: chunked\r\n\r\n", ""],
      ["HTTP/1.1 204 No Content\r\ncontent-length: 5\r\n\r\n", ""],
      ["HTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\n", ""],
      ["HTTP/1.1 100 Continue\r\ncontent-length: 5\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}", "{}"],
    ];
    for (const [answer, body] of answers) {
      let n = 0;
      const server = rawServer((socket) => {
        socket.write(n++ === 0 ? answer : 'HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n{"ok":true}');
      });
      const first = await pooledPost(server.url, {}, "{}", new Deadline(2_000));
      expect(await first.text()).toBe(body);
      expect(await (await pooledPost(server.url, {}, "{}", never())).text()).toBe('{"ok":true}');
      expect(server.connections()).toBe(1);
    }
  });

  test("a malformed answer is an error, not a hang", async () => {
    const server = rawServer((socket) => socket.write("this is not HTTP\r\n\r\n"));
    const error = await pooledPost(server.url, {}, "{}", never()).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(error?.code).toBe("EPROTO");
  });

  test("aborting closes the connection: the server sees its client go away", async () => {
    let serverSawAbort: Promise<void> = Promise.resolve();
    const url = httpServer((req) => {
      serverSawAbort = new Promise((resolve) => req.signal.addEventListener("abort", () => resolve()));
      return new Response(
        new ReadableStream({
          async start(c) {
            c.enqueue(new TextEncoder().encode("data: 0\n\n"));
            await Bun.sleep(5_000);
            c.close();
          },
        }),
      );
    });
    const controller = new AbortController();
    const res = await pooledPost(url, {}, "{}", new Deadline(600_000, controller.signal));
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort(new DOMException("client left", "AbortError"));
    await expect(reader.read()).rejects.toThrow("client left");
    await serverSawAbort;
  });

  test("an abort while connecting or waiting for the head rejects at once", async () => {
    // The server never answers: only the abort can settle the call (a call that ignored it would hang
    // until the test's own timeout fails it).
    let received!: () => void;
    const requestArrived = new Promise<void>((r) => (received = r));
    const url = httpServer((req) => {
      received();
      return new Promise<Response>((resolve) => req.signal.addEventListener("abort", () => resolve(new Response("gone"))));
    });
    const controller = new AbortController();
    const call = pooledPost(url, {}, "{}", new Deadline(600_000, controller.signal));
    await requestArrived;
    controller.abort(new DOMException("deadline", "TimeoutError"));
    await expect(call).rejects.toThrow("deadline");
  });

  test("an abort before the connection is made rejects too, and nothing is sent", async () => {
    let requests = 0;
    const url = httpServer(() => {
      requests++;
      return new Response("ok");
    });
    const controller = new AbortController();
    const call = pooledPost(url, {}, "{}", new Deadline(600_000, controller.signal));
    controller.abort(new DOMException("deadline", "TimeoutError"));
    await expect(call).rejects.toThrow("deadline");
    expect(requests).toBe(0);
  });

  test("nobody listening is ECONNREFUSED", async () => {
    const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = listener.port;
    listener.stop(true);
    const error = await pooledPost(new URL(`http://127.0.0.1:${port}/v1`), {}, "{}", never()).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(error?.code).toBe("ECONNREFUSED");
  });

  test("a header value with a line break is refused before anything is sent", async () => {
    let requests = 0;
    const url = httpServer(() => {
      requests++;
      return new Response("{}");
    });
    await expect(pooledPost(url, { authorization: "Bearer k\r\nx-injected: 1" }, "{}", never())).rejects.toThrow("line break");
    expect(requests).toBe(0);
  });
});
