import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { dropInRig, OFF, SDKS } from "./support";

/** Streams as OpenAI specifies them: n > 1, stream_options.include_usage, refusals and logprobs. */
const rig = dropInRig();
let n = 0;
const prompt = (text: string) => [{ role: "user" as const, content: `${text} (${++n})` }];

async function chunksOf(res: Response): Promise<any[]> {
  const frames = (await res.text()).split("\n\n").filter((f) => f.startsWith("data: "));
  expect(frames.at(-1)).toBe("data: [DONE]");
  return frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)));
}

describe.each(SDKS)("$name", ({ make }) => {
  test("n > 1 streams every choice, each with its finish_reason, and the .stream() helper accepts it", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const runner = client.chat.completions.stream({ model: "gpt-4o-mini", messages: prompt("Name a colour"), n: 3 });
    const final = await runner.finalChatCompletion();
    expect(final.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(final.choices.map((c) => c.finish_reason)).toEqual(["stop", "stop", "stop"]);
    expect(final.choices[2]!.message.content).toContain("(choice 2)");
  });

  test("include_usage: usage arrives in a final chunk with choices: [] ", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: prompt("Name a fruit"),
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage!.total_tokens).toBe(last.usage!.prompt_tokens + last.usage!.completion_tokens);
    expect((last as any).svc_meta.model_requested).toBe("gpt-4o-mini");
    expect(chunks.slice(0, -1).every((c) => !c.usage)).toBe(true);
  });
});

test("without include_usage no chunk carries usage, and svc_meta rides on the last finish chunk", async () => {
  const res = await call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
    body: { model: "gpt-4o-mini", messages: prompt("Name a river"), stream: true, svc_options: OFF },
  });
  const chunks = await chunksOf(res);
  expect(chunks.every((c) => c.usage === undefined)).toBe(true);
  expect(chunks.at(-1).choices).toEqual([{ index: 0, delta: {}, finish_reason: "stop" }]);
  expect(chunks.at(-1).svc_meta.cache_hit).toBe(false);
});

test("a cache replay ends the same way, per choice and with include_usage", async () => {
  const body = {
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: "Name a mountain range in Europe" }],
    stream: true,
    stream_options: { include_usage: true },
  };
  await (await call(`${rig.baseURL}/chat/completions`, rig.admin.key, { body })).text();
  const chunks = await chunksOf(await call(`${rig.baseURL}/chat/completions`, rig.admin.key, { body }));
  expect(chunks.at(-1).svc_meta.cache_hit).toBe(true);
  expect(chunks.at(-1).choices).toEqual([]);
  expect(chunks.at(-1).usage.total_tokens).toBeGreaterThan(0);
  expect(chunks.at(-2).choices[0].finish_reason).toBe("stop");
});

test("logprobs in stream chunks", async () => {
  const logprobs = { content: [{ token: "x", logprob: -0.5, bytes: [120], top_logprobs: [] }], refusal: null };
  rig.openai.extras = { choice: { logprobs } };
  try {
    const res = await call(`${rig.baseURL}/chat/completions`, rig.admin.key, {
      body: { model: "gpt-4o-mini", messages: prompt("Name a tree"), stream: true, logprobs: true, svc_options: OFF },
    });
    const withContent = (await chunksOf(res)).filter((c) => c.choices[0]?.delta?.content);
    expect(withContent.length).toBeGreaterThan(0);
    expect(withContent.every((c) => JSON.stringify(c.choices[0].logprobs) === JSON.stringify(logprobs))).toBe(true);
  } finally {
    rig.openai.extras = undefined;
  }
});

test("a streamed refusal reaches the client and is not cached", async () => {
  rig.openai.refusal = "I can't help with that.";
  try {
    const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Refuse this streamed request" }], stream: true };
    const first = await chunksOf(await call(`${rig.baseURL}/chat/completions`, rig.admin.key, { body }));
    expect(first.map((c) => c.choices[0]?.delta?.refusal ?? "").join("")).toBe("I can't help with that.");
    const again = await chunksOf(await call(`${rig.baseURL}/chat/completions`, rig.admin.key, { body }));
    expect(again.at(-1).svc_meta.cache_hit).toBe(false);
  } finally {
    rig.openai.refusal = undefined;
  }
});
