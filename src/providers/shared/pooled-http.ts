import type { Socket } from "bun";
import { HTTPParser } from "http-parser-js";
import type { Cancellation } from "./deadline";
import { headerOf, simpleHead } from "./simple-head";

/**
 * HTTP/1.1 POSTs over keep-alive sockets that the event loop owns, for plain-http upstreams (a model
 * server on the same host or in the same cluster, the benchmark's mock). Bun's fetch hands every call
 * to its HTTP client thread and back; on a loopback upstream that round trip is the largest cost of
 * the relay (fetch 38-52 µs of CPU per call against 26-33 µs here, the same client and mock,
 * interleaved). An answer whose whole head arrives in its first packet with a Content-Length is framed
 * by `simpleHead` and counted; any other framing (chunked, close-delimited, 1xx, a split head) is parsed
 * by http-parser-js.
 * https and proxied upstreams stay on fetch: there TLS and the network dwarf these microseconds.
 */

/** What the provider layer reads of an answer; a fetch Response has the same shape. */
export interface UpstreamResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  /** The body as it arrives, for server-sent events. Cancelling it closes the connection. */
  readonly body: ReadableStream<Uint8Array> | null;
  text(): Promise<string>;
}

/**
 * Idle sockets are closed after this long: below the 5 s keep-alive of uvicorn (vLLM) and Node
 * servers, so the server rarely closes a socket just as we reuse it (see `stale`).
 */
const IDLE_TIMEOUT_S = 4;
/** Idle sockets kept per origin; more are closed when their exchange ends. */
const MAX_IDLE_PER_ORIGIN = 256;

/** An Error with the errno-style code that upstream-http maps to a ProviderError. */
function socketError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** The socket closed or failed before any byte of the answer: on a reused socket, safe to send again on a fresh one. */
class Unanswered extends Error {
  constructor(readonly original: Error) {
    super(original.message);
  }
}

/** One request and its response on one socket. */
class Exchange implements UpstreamResponse {
  status = 0;
  /** The headers as [name, value, …] when http-parser-js read the head. */
  private rawHeaders: string[] = [];
  /** The head's text when simpleHead read it: a header is looked up in it when asked. */
  private headText: string | undefined;
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private failure: Error | null = null;
  /** Whether any byte of the response arrived (a stale socket fails before the first). */
  answered = false;
  private wake: (() => void) | null = null;
  /** Runs once when the exchange ends or fails (pooledPost lets go of the caller's signal there). */
  onFinish: (() => void) | null = null;
  private stream: ReadableStream<Uint8Array> | null = null;
  private readonly head: Promise<void>;
  private headSettled!: (e?: Error) => void;

  constructor(private readonly socket: Socket<Connection>) {
    this.head = new Promise((resolve, reject) => (this.headSettled = (e) => (e ? reject(e) : resolve())));
    // A failure after the head is read surfaces through text() or the body; nobody awaits the head then.
    this.head.catch(() => undefined);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** The exchange answers for its own headers (`get`): no object and closure made per call for them. */
  get headers(): { get(name: string): string | null } {
    return this;
  }

  get(name: string): string | null {
    if (this.headText !== undefined) return headerOf(this.headText, name);
    const lower = name.toLowerCase();
    for (let i = 0; i < this.rawHeaders.length; i += 2) if (this.rawHeaders[i]!.toLowerCase() === lower) return this.rawHeaders[i + 1]!;
    return null;
  }

  get body(): ReadableStream<Uint8Array> {
    this.stream ??= new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          while (this.chunks.length === 0 && !this.ended && !this.failure) await new Promise<void>((r) => (this.wake = r));
          if (this.chunks.length > 0) controller.enqueue(this.chunks.shift()!);
          else if (this.failure) controller.error(this.failure);
          else controller.close();
        },
        cancel: () => {
          if (!this.ended) this.socket.terminate();
        },
      },
      { highWaterMark: 0 },
    );
    return this.stream;
  }

  async text(): Promise<string> {
    while (!this.ended && !this.failure) await new Promise<void>((r) => (this.wake = r));
    if (this.failure) throw this.failure;
    return this.chunks.length === 1 ? this.chunks[0]!.toString("utf8") : Buffer.concat(this.chunks).toString("utf8");
  }

  /** Resolves once the status line and headers are in; rejects if the exchange fails before. */
  waitForHead(): Promise<void> {
    return this.head;
  }

  /** The head: as [name, value, …] from http-parser-js, or as simpleHead's text. */
  onHead(status: number, headers: string[] | string): void {
    this.status = status;
    if (typeof headers === "string") this.headText = headers;
    else this.rawHeaders = headers;
    this.headSettled();
  }

  onBody(chunk: Buffer): void {
    // A view, kept as is: Bun hands each data event a buffer of its own, never reused for a later read.
    this.chunks.push(chunk);
    this.notify();
  }

  onEnd(): void {
    this.ended = true;
    this.settle();
  }

  fail(e: Error): void {
    if (this.ended || this.failure) return;
    this.failure = e;
    this.headSettled(e);
    this.settle();
  }

  private settle(): void {
    this.notify();
    const hook = this.onFinish;
    this.onFinish = null;
    hook?.();
  }

  get finished(): boolean {
    return this.ended || this.failure !== null;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/** What a pooled socket carries. */
interface Connection {
  origin: Origin;
  parser: Parser;
  exchange: Exchange | null;
  keepAlive: boolean;
  /** Request bytes the socket did not take yet (written on drain). */
  unsent: Uint8Array | null;
  /** Body bytes still to come of an answer `simpleHead` framed; -1 when http-parser-js frames the answer, or none is on its way. */
  left: number;
}

class Origin {
  readonly idle: Socket<Connection>[] = [];

  constructor(
    readonly hostname: string,
    readonly port: number,
  ) {}

  connect(): Promise<Socket<Connection>> {
    const data: Connection = { origin: this, parser: newParser(), exchange: null, keepAlive: false, unsent: null, left: -1 };
    return Bun.connect<Connection>({ hostname: this.hostname, port: this.port, data, socket: HANDLERS });
  }

  /** Back to the idle list after a complete exchange, or closed when the server or the list says so. */
  release(socket: Socket<Connection>): void {
    if (!socket.data.keepAlive || this.idle.length >= MAX_IDLE_PER_ORIGIN) {
      socket.end();
      return;
    }
    socket.timeout(IDLE_TIMEOUT_S);
    this.idle.push(socket);
  }

  forget(socket: Socket<Connection>): void {
    const i = this.idle.indexOf(socket);
    if (i >= 0) this.idle.splice(i, 1);
  }
}

/**
 * http-parser-js's parser, with the state of its own that this module reads and its types leave out: where
 * it is in the chunk being parsed (`offset` up to `end`) and the header bytes it has counted (`headerSize`).
 */
type Parser = InstanceType<typeof HTTPParser> & { offset: number; end: number; headerSize: number };

function newParser(): Parser {
  return new HTTPParser(HTTPParser.RESPONSE) as Parser;
}

/** Wires a socket's parser to whatever exchange the socket carries at the time. */
function attach(socket: Socket<Connection>): void {
  const parser = socket.data.parser;
  parser[HTTPParser.kOnHeadersComplete] = (info) => {
    // A 1xx, 204 or 304 ends with its head whatever content-length or transfer-encoding say (RFC 9112 §6.3);
    // http-parser-js would wait for the body they announce. A truthy return tells it there is none.
    // An interim 1xx answer is followed by the real one on the same socket.
    if (info.statusCode >= 100 && info.statusCode < 200) return 1;
    socket.data.keepAlive = info.shouldKeepAlive;
    socket.data.exchange?.onHead(info.statusCode, info.headers);
    return info.statusCode === 204 || info.statusCode === 304 ? 1 : 0;
  };
  parser[HTTPParser.kOnBody] = (chunk, offset, length) => socket.data.exchange?.onBody(chunk.subarray(offset, offset + length));
  parser[HTTPParser.kOnMessageComplete] = () => {
    const exchange = socket.data.exchange;
    if (!exchange || exchange.status < 200) return;
    complete(socket, exchange, parser.offset < parser.end);
  };
}

/** The answer is whole: the exchange ends, and the socket goes back to the pool or is closed. */
function complete(socket: Socket<Connection>, exchange: Exchange, bytesPastEnd: boolean): void {
  socket.data.exchange = null;
  exchange.onEnd();
  // Not kept when the server answered before taking the whole request (the rest would go out ahead of the
  // next one), or sent bytes past the end of the answer (a short content-length, a second answer: they
  // would be read as the start of the next exchange's answer).
  if (socket.data.unsent || bytesPastEnd) socket.terminate();
  else socket.data.origin.release(socket);
}

/** Body bytes of an answer `simpleHead` framed: passed on up to its Content-Length, where the answer ends. */
function countedBody(socket: Socket<Connection>, exchange: Exchange, bytes: Buffer): void {
  const left = socket.data.left;
  const take = Math.min(left, bytes.length);
  if (take > 0) exchange.onBody(take === bytes.length ? bytes : bytes.subarray(0, take));
  if (take < left) {
    socket.data.left = left - take;
    return;
  }
  socket.data.left = -1;
  complete(socket, exchange, bytes.length > take);
}

const HANDLERS = {
  open(socket: Socket<Connection>) {
    attach(socket);
  },
  data(socket: Socket<Connection>, data: Buffer) {
    const exchange = socket.data.exchange;
    if (!exchange) {
      // Bytes nobody asked for (a server talking out of turn): the socket can no longer be trusted.
      socket.terminate();
      return;
    }
    const first = !exchange.answered;
    exchange.answered = true;
    if (socket.data.left >= 0) {
      countedBody(socket, exchange, data);
      return;
    }
    const head = first ? simpleHead(data) : undefined;
    if (head) {
      socket.data.keepAlive = true;
      socket.data.left = head.contentLength;
      exchange.onHead(head.status, head.text);
      countedBody(socket, exchange, data.subarray(head.headBytes));
      return;
    }
    const parser = socket.data.parser;
    const result = parser.execute(data);
    if (socket.data.exchange !== exchange) {
      // The answer ended in this chunk, and http-parser-js, checking the size of a head after the fact,
      // counted the whole chunk as head bytes of the next answer: its "max header size exceeded" is no
      // error, and the next answer's count starts at nothing.
      parser.headerSize = 0;
    } else if (result instanceof Error) {
      exchange.fail(socketError("EPROTO", `malformed HTTP response: ${result.message}`));
      socket.terminate();
    }
  },
  drain(socket: Socket<Connection>) {
    const unsent = socket.data.unsent;
    socket.data.unsent = null;
    if (unsent) write(socket, unsent);
  },
  timeout(socket: Socket<Connection>) {
    // Only idle sockets have a timeout set; calls carry their own deadline.
    if (!socket.data.exchange) socket.terminate();
  },
  close(socket: Socket<Connection>) {
    socket.data.origin.forget(socket);
    const exchange = socket.data.exchange;
    if (!exchange || exchange.finished) return;
    // A body without length or chunking ends when the server closes: that is its end, not a failure.
    // (A counted body cut short is a failure: its parser never saw the answer.)
    if (exchange.answered && exchange.status >= 200 && socket.data.left < 0) socket.data.parser.finish();
    if (exchange.finished) return;
    const reset = socketError("ECONNRESET", "the server closed the connection before the answer was complete");
    exchange.fail(exchange.answered ? reset : new Unanswered(reset));
  },
  error(socket: Socket<Connection>, error: Error) {
    const exchange = socket.data.exchange;
    exchange?.fail(exchange.answered ? error : new Unanswered(error));
  },
};

/** Writes what the socket takes now and keeps the rest for `drain`. A string is written as is: a Buffer costs Bun several times more per write. */
function write(socket: Socket<Connection>, request: string | Uint8Array): void {
  const written = socket.write(request);
  if (written < 0) {
    socket.data.exchange?.fail(new Unanswered(socketError("ECONNRESET", "the connection closed before the request was sent")));
    return;
  }
  const bytes = typeof request === "string" ? (written === Buffer.byteLength(request) ? null : Buffer.from(request)) : request;
  if (bytes && written < bytes.length) socket.data.unsent = bytes.subarray(written);
}

const origins = new Map<string, Origin>();

function originOf(url: URL): Origin {
  let origin = origins.get(url.host);
  if (!origin) {
    origin = new Origin(url.hostname.replace(/^\[|\]$/g, ""), Number(url.port || 80));
    origins.set(url.host, origin);
  }
  return origin;
}

/**
 * The head's lines before Content-Length, per headers object and URL: a provider sends the same ones on
 * every call, and building and checking them per call was about 1% of the relay's event-loop samples
 * under load (bun --cpu-prof, 32 connections).
 */
const heads = new WeakMap<object, { url: URL; lines: string }>();

function headLines(url: URL, headers: Readonly<Record<string, string>>): string {
  const known = heads.get(headers);
  if (known?.url === url) return known.lines;
  let lines = `POST ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const name in headers) {
    const value = headers[name]!;
    // A line break would end the header and start another (header injection); fetch refuses it too.
    if (value.includes("\n") || value.includes("\r")) throw new TypeError(`header ${name} contains a line break`);
    lines += `${name}: ${value}\r\n`;
  }
  heads.set(headers, { url, lines });
  return lines;
}

/** The whole request, head and JSON body, for one write. */
function requestText(url: URL, headers: Readonly<Record<string, string>>, body: string): string {
  return `${headLines(url, headers)}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Why a cancelled call failed: the canceller's reason when it is an error, else an AbortError. */
function abortError(cancel: Cancellation): Error {
  return cancel.reason instanceof Error ? cancel.reason : new DOMException("aborted", "AbortError");
}

/**
 * POSTs `body` and resolves once the response head is in; the body is read from the result.
 * Cancelling closes the socket, which the server sees as the client going away.
 */
export async function pooledPost(url: URL, headers: Readonly<Record<string, string>>, body: string, cancel: Cancellation): Promise<UpstreamResponse> {
  const origin = originOf(url);
  const request = requestText(url, headers, body);
  let retried = false;
  while (true) {
    if (cancel.aborted) throw abortError(cancel);
    const reused = retried ? undefined : origin.idle.pop();
    const socket = reused ?? (await connectUnlessAborted(origin, cancel));
    const exchange = new Exchange(socket);
    socket.data.exchange = exchange;
    socket.timeout(0);
    exchange.onFinish = cancel.watch(() => {
      exchange.fail(abortError(cancel));
      socket.terminate();
    });
    // The watcher runs at once when the cancel landed between the connect resolving and the line above.
    if (cancel.aborted) throw abortError(cancel);
    write(socket, request);
    try {
      await exchange.waitForHead();
      return exchange;
    } catch (e) {
      if (!(e instanceof Unanswered)) throw e;
      if (!reused) throw e.original;
      // The server had closed this idle socket as we took it: send again, once, on a fresh one. Not on
      // the next idle one, which is older and as likely stale; and not more than once, as a server that
      // took the request and closed (a crash, a proxy's timeout) would be sent it again for every try.
      retried = true;
    }
  }
}

/** A connect the caller's deadline can cut short (a black-holed address would otherwise wait for the OS). */
async function connectUnlessAborted(origin: Origin, cancel: Cancellation): Promise<Socket<Connection>> {
  const connecting = origin.connect();
  let unwatch!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    unwatch = cancel.watch(() => reject(abortError(cancel)));
  });
  try {
    return await Promise.race([connecting, aborted]);
  } catch (e) {
    // The connect may still succeed after the abort: close that socket rather than leak it.
    connecting.then(
      (s) => s.terminate(),
      () => undefined,
    );
    throw e;
  } finally {
    unwatch();
  }
}
