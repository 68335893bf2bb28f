import { describe, expect, test } from "bun:test";
import { headerOf, simpleHead } from "../../src/providers/shared/simple-head";

/** The fast path for an answer's head: only the common case is read; everything else is left to http-parser-js. */

const chunk = (head: string, body = "") => Buffer.from(`${head}\r\n\r\n${body}`, "latin1");

describe("simpleHead", () => {
  test("reads the status, the headers as sent and the body's length, and says where the body starts", () => {
    const c = chunk("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nx-request-id:  abc \r\ncontent-length: 7\r\nConnection: keep-alive", '{"a":1}');
    const head = simpleHead(c)!;
    expect(head.status).toBe(200);
    const read = (name: string) => headerOf(head.text, name);
    expect(["content-type", "X-Request-Id", "Content-Length", "connection", "retry-after", "content", "x-request-idx"].map(read)).toEqual([
      "application/json",
      "abc",
      "7",
      "keep-alive",
      null,
      null,
      null,
    ]);
    expect(head.contentLength).toBe(7);
    expect(c.subarray(head.headBytes).toString()).toBe('{"a":1}');
  });

  test("an error status with a body is read like any other; a reason phrase is optional", () => {
    expect(simpleHead(chunk("HTTP/1.1 429\r\ncontent-length: 0"))).toMatchObject({ status: 429, contentLength: 0 });
    const limited = simpleHead(chunk("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 3\r\ncontent-length: 0\r\nretry-after: 9"))!;
    expect(headerOf(limited.text, "retry-after")).toBe("3");
  });

  test.each([
    ["a head that does not end in this chunk", Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n")],
    ["a chunked body", chunk("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked")],
    ["both a length and chunking", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nTransfer-Encoding: chunked")],
    ["no length (close-delimited)", chunk("HTTP/1.1 200 OK\r\ncontent-type: text/plain")],
    ["two lengths", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 2")],
    ["a length that is not a number", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2x")],
    ["a negative length", chunk("HTTP/1.1 200 OK\r\ncontent-length: -1")],
    ["Connection: close", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close")],
    ["Connection: close in capitals", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nCONNECTION:Close")],
    ["Transfer-Encoding in capitals", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nTRANSFER-ENCODING: identity")],
    ["a status line without headers", chunk("HTTP/1.1 200 OK")],
    ["a status code run into its reason", chunk("HTTP/1.1 200OK\r\ncontent-length: 2")],
    ["HTTP/1.0", chunk("HTTP/1.0 200 OK\r\ncontent-length: 2")],
    ["an interim 1xx", chunk("HTTP/1.1 100 Continue")],
    ["a 204", chunk("HTTP/1.1 204 No Content\r\ncontent-length: 5")],
    ["a 304", chunk("HTTP/1.1 304 Not Modified\r\ncontent-length: 5")],
    ["a folded header line", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-a: b\r\n c")],
    ["a line without a name", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n: b")],
    ["a line without a colon", chunk("HTTP/1.1 200 OK\r\ncontent-length: 2\r\ngarbage")],
    ["a status line that is not HTTP", chunk("HTTX/1.1 200 OK\r\ncontent-length: 2")],
  ])("%s is left to the full parser", (_name, c) => {
    expect(simpleHead(c)).toBeUndefined();
  });
});
