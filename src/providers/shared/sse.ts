import { createParser, type EventSourceMessage } from "eventsource-parser";
import { ProviderError } from "../types";

/**
 * The server-sent events of a response body, in arrival order. `onChunk` runs for every network chunk
 * with its size (used to push back an idle deadline and to cap the answer's size; it may throw). Stopping the iteration early cancels the body, which closes the
 * upstream request.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, onChunk?: (bytes: number) => void): AsyncGenerator<EventSourceMessage> {
  const pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event) });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let finished = false;
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      onChunk?.(value.byteLength);
      parser.feed(decoder.decode(value, { stream: true }));
      while (pending.length > 0) yield pending.shift()!;
    }
    finished = true;
    parser.feed(decoder.decode());
    while (pending.length > 0) yield pending.shift()!;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** The JSON payload of one event; a provider sending anything else is broken, which is a protocol error. */
export function eventJson<T>(event: EventSourceMessage, provider: string): T {
  try {
    return JSON.parse(event.data) as T;
  } catch {
    throw new ProviderError("protocol", `${provider} sent a stream event that is not JSON`);
  }
}
