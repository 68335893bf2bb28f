import { afterAll, beforeEach } from "bun:test";
import type { ChatMessage } from "../../src/core/messages";
import type { MockProvider } from "../mocks/mock-server";
import type { PassThroughParams, ProviderRequest, StreamDelta, StreamEvent, Usage } from "../../src/providers/types";

export const KEY = "sk-test-SECRET-4d2f9a";

export const WEATHER_TOOL = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

export function providerRequest(model: string, over: Partial<ProviderRequest> & { params?: PassThroughParams } = {}): ProviderRequest {
  const messages: ChatMessage[] = [
    { role: "system", content: "You are terse." },
    { role: "user", content: "What is the capital of France?" },
  ];
  return { model, messages, max_tokens: 64, params: {}, signal: new AbortController().signal, timeoutMs: 5_000, ...over };
}

export interface Collected {
  deltas: StreamDelta[];
  usage?: Usage;
  text: string;
}

export async function collect(events: AsyncIterable<StreamEvent>): Promise<Collected> {
  const out: Collected = { deltas: [], text: "" };
  for await (const e of events) {
    if (e.kind === "usage") out.usage = e.usage;
    else {
      out.deltas.push(e.delta);
      out.text += e.delta.delta.content ?? "";
    }
  }
  return out;
}

/** Runs `fn` and returns what it threw (failing the test if it did not throw). */
export async function thrown(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a failure, got success");
}

/** A localhost port where nothing listens: connecting to it is refused. */
export function deadPort(): number {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = server.port!;
  server.stop(true);
  return port;
}

/** Keeps a mock for the whole test file: a clean, well-behaved server before each test, stopped after all. */
export function mockForFile<T extends MockProvider>(mock: T): T {
  beforeEach(() => mock.reset());
  afterAll(() => mock.stop());
  return mock;
}
