import type { LoadSpec } from "./wrk";

/** A request as the concurrency-1 client sends it: the body may differ per request (cache misses). */
export interface ClientTarget {
  url: string;
  method?: "GET" | "POST";
  /** The status every answer must have (200 unless measuring refusals). */
  expectStatus?: number;
  headers: Record<string, string>;
  body: (i: number) => string;
}

export function fromLoadSpec(spec: LoadSpec, body?: (i: number) => string): ClientTarget {
  return { url: spec.url, method: spec.method, headers: spec.headers, body: body ?? (() => spec.body) };
}

async function send(t: ClientTarget, i: number): Promise<Response> {
  if (t.method === "GET") return fetch(t.url, { headers: t.headers });
  return fetch(t.url, { method: "POST", headers: { "content-type": "application/json", ...t.headers }, body: t.body(i) });
}

/** Milliseconds from sending to the last byte of the answer, one request at a time. Throws on a non-2xx answer. */
export async function timeRequests(t: ClientTarget, count: number, offset = 0): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await send(t, offset + i);
    const text = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== (t.expectStatus ?? 200)) throw new Error(`${t.url} answered ${res.status}: ${text.slice(0, 300)}`);
    out.push(ms);
  }
  return out;
}

/** True when an SSE event block carries the first piece of answer text (a non-empty content delta). */
function carriesToken(event: string): boolean {
  for (const line of event.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "[DONE]") continue;
    try {
      const chunk = JSON.parse(data) as { choices?: { delta?: { content?: string | null } }[] };
      if (chunk.choices?.some((c) => (c.delta?.content ?? "").length > 0)) return true;
    } catch {
      // not a JSON chunk: no token
    }
  }
  return false;
}

export interface StreamTiming {
  /** Milliseconds to the first SSE event with answer text. */
  ttftMs: number;
  /** Milliseconds to the end of the stream. */
  totalMs: number;
}

/** Time to first token and to the end of a streamed answer, one request at a time. */
export async function timeStreams(t: ClientTarget, count: number, offset = 0): Promise<StreamTiming[]> {
  const out: StreamTiming[] = [];
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await send(t, offset + i);
    if (!res.ok || !res.body) throw new Error(`${t.url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    let ttft = NaN;
    let buf = "";
    for await (const chunk of res.body) {
      if (!Number.isNaN(ttft)) continue;
      buf += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buf.indexOf("\n\n")) >= 0 && Number.isNaN(ttft)) {
        if (carriesToken(buf.slice(0, end))) ttft = performance.now() - t0;
        buf = buf.slice(end + 2);
      }
    }
    if (Number.isNaN(ttft)) throw new Error(`${t.url} streamed no answer text`);
    out.push({ ttftMs: ttft, totalMs: performance.now() - t0 });
  }
  return out;
}
