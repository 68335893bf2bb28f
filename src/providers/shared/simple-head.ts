/** An answer's head read by `simpleHead`: its status, its text (for `headerOf`), and how many body bytes follow. */
export interface SimpleHead {
  status: number;
  /** The head as sent (latin1), status line included, without the blank line. */
  text: string;
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

/** Where the line starting at `from` ends (its CR), or the text's end. */
function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\r\n", from);
  return end < 0 ? text.length : end;
}

/** Whether the header line at `from` with its colon at `colon` is named `lower` (lower case), in any case; compared in place. */
function named(text: string, from: number, colon: number, lower: string): boolean {
  if (colon - from !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    const c = text.charCodeAt(from + i);
    const l = lower.charCodeAt(i);
    // Only a letter has another case (a-z is 97-122, A-Z 32 below).
    if (c !== l && !(l >= 97 && l <= 122 && c === l - 32)) return false;
  }
  return true;
}

/**
 * The head of the answer a chunk starts with, when it is the common case a model server sends: HTTP/1.1,
 * a final status that has a body (200-599, not 204 or 304), the whole head in this chunk, one
 * Content-Length, no Transfer-Encoding and no Connection other than keep-alive. Anything else (a head
 * split across packets, chunked or close-delimited bodies, 1xx, HTTP/1.0, folded or malformed lines) is
 * undefined, and the caller hands the chunk to the full parser (http-parser-js), which frames every case.
 * This path exists for its cost: http-parser-js took 12-16 µs of CPU per answer on the benchmark's mock
 * answer (a loop of 200k, bun, this machine loaded), most of what the relay's upstream read costs.
 * The lines are checked in place, and only the three names that decide the framing are read (a name is
 * compared only when its length matches): splitting the head into lines and every line into a
 * lower-cased name and a trimmed value made simpleHead 3.2% of the relay's event-loop samples under
 * load (bun --cpu-prof, 32 connections), the largest function of ours; the headers are read from the
 * text when asked (headerOf), which on a relayed answer is for Content-Length alone.
 */
export function simpleHead(chunk: Buffer): SimpleHead | undefined {
  const end = chunk.indexOf(HEAD_END);
  if (end < 0) return undefined;
  const text = chunk.toString("latin1", 0, end);
  if (!text.startsWith(VERSION) || (text.length > 12 && text.charCodeAt(12) !== 32 && text.charCodeAt(12) !== 13)) return undefined;
  const code = digitsValue(text, 9, 12);
  if (code < 200 || code > 599 || code === 204 || code === 304) return undefined;
  let contentLength = -1;
  for (let at = lineEnd(text, 0); at < text.length; ) {
    const from = at + 2;
    at = lineEnd(text, from);
    const colon = text.indexOf(":", from);
    const first = text.charCodeAt(from);
    // No name, or a continuation line (obsolete folding): the full parser decides.
    if (colon <= from || colon > at || first === 32 || first === 9) return undefined;
    if (named(text, from, colon, "content-length")) {
      if (contentLength >= 0) return undefined;
      const value = text.slice(colon + 1, at).trim();
      contentLength = digitsValue(value, 0, value.length);
      if (contentLength < 0) return undefined;
    } else if (
      named(text, from, colon, "transfer-encoding") ||
      (named(text, from, colon, "connection") &&
        text
          .slice(colon + 1, at)
          .trim()
          .toLowerCase() !== "keep-alive")
    )
      return undefined;
  }
  if (contentLength < 0) return undefined;
  return { status: code, text, contentLength, headBytes: end + 4 };
}

/** The value of the first header named `name` in a head `simpleHead` read (trimmed), or null. */
export function headerOf(text: string, name: string): string | null {
  const lower = name.toLowerCase();
  for (let at = lineEnd(text, 0); at < text.length; ) {
    const from = at + 2;
    at = lineEnd(text, from);
    const colon = text.indexOf(":", from);
    if (named(text, from, colon, lower)) return text.slice(colon + 1, at).trim();
  }
  return null;
}
