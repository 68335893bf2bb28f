/** An answer's head read by `simpleHead`: its status, its headers as [name, value, …], and how many body bytes follow. */
export interface SimpleHead {
  status: number;
  headers: string[];
  contentLength: number;
  /** Bytes of the chunk the head took, its blank line included: the body starts there. */
  headBytes: number;
}

const HEAD_END = Buffer.from("\r\n\r\n");
const VERSION = "HTTP/1.1 ";

/** The number written by `text` from `from` to `to` in decimal digits only, else -1. (A regular expression on a header's substring cost 2 µs a call here.) */
function digitsValue(text: string, from: number, to: number): number {
  if (to <= from || to - from > 15) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * The head of the answer a chunk starts with, when it is the common case a model server sends: HTTP/1.1,
 * a final status that has a body (200-599, not 204 or 304), the whole head in this chunk, one
 * Content-Length, no Transfer-Encoding and no Connection other than keep-alive. Anything else (a head
 * split across packets, chunked or close-delimited bodies, 1xx, HTTP/1.0, folded or malformed lines) is
 * undefined, and the caller hands the chunk to the full parser (http-parser-js), which frames every case.
 * This path exists for its cost: http-parser-js took 12-16 µs of CPU per answer on the benchmark's mock
 * answer (a loop of 200k, bun, this machine loaded), most of what the relay's upstream read costs.
 */
export function simpleHead(chunk: Buffer): SimpleHead | undefined {
  const end = chunk.indexOf(HEAD_END);
  if (end < 0) return undefined;
  const lines = chunk.toString("latin1", 0, end).split("\r\n");
  const first = lines[0]!;
  if (!first.startsWith(VERSION) || (first.length > 12 && first.charCodeAt(12) !== 32)) return undefined;
  const code = digitsValue(first, 9, 12);
  if (code < 200 || code > 599 || code === 204 || code === 304) return undefined;
  const headers: string[] = [];
  let contentLength = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(":");
    // No name, or a continuation line (obsolete folding): the full parser decides.
    if (colon <= 0 || line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) return undefined;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).trim();
    const lower = name.toLowerCase();
    if (lower === "content-length") {
      if (contentLength >= 0) return undefined;
      contentLength = digitsValue(value, 0, value.length);
      if (contentLength < 0) return undefined;
    } else if (lower === "transfer-encoding" || (lower === "connection" && value.toLowerCase() !== "keep-alive")) return undefined;
    headers.push(name, value);
  }
  if (contentLength < 0) return undefined;
  return { status: code, headers, contentLength, headBytes: end + 4 };
}
