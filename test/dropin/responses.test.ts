import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { dropInRig, lastBody, SDKS } from "./support";

/** POST /v1/responses through the same pipeline: the openai SDK's responses.create, plain and streamed. */
const rig = dropInRig();
let n = 0;
const fresh = (text: string) => `${text} (${++n})`;

describe.each(SDKS)("$name responses", ({ make }) => {
  test("a plain response: output_text, usage, svc_meta; instructions go first", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const input = fresh("Give me a fun fact");
    const r = await client.responses.create({ model: "gpt-4o-mini", instructions: "Answer in one line.", input });
    expect(r.object).toBe("response");
    expect(r.status).toBe("completed");
    expect(r.output_text).toContain("heard: Give me a fun fact");
    expect(r.usage!.total_tokens).toBe(r.usage!.input_tokens + r.usage!.output_tokens);
    expect((r as any).svc_meta.model_requested).toBe("gpt-4o-mini");
    expect(lastBody(rig.openai).messages[0]).toEqual({ role: "developer", content: "Answer in one line." });
  });

  test("streamed: typed events in order, ending in response.completed", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const stream = await client.responses.create({ model: "claude-3-5-haiku", input: fresh("Stream a short poem"), stream: true });
    const types: string[] = [];
    let text = "";
    let final: any;
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.output_text.delta") text += ev.delta;
      if (ev.type === "response.completed") final = ev.response;
    }
    expect(types.slice(0, 4)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"]);
    expect(types.at(-1)).toBe("response.completed");
    expect(types).toContain("response.output_text.done");
    expect(text).toContain("heard: Stream a short poem");
    expect(final.output_text).toBe(text);
    expect(final.svc_meta.routing_reason).toBe("explicit_model");
  });

  test("function tools: a function_call item, then its output sent back", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    rig.openai.toolCall = { id: "call_r1", name: "get_weather", arguments: { city: "Rome" } };
    try {
      const tools = [
        {
          type: "function" as const,
          name: "get_weather",
          parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          strict: false,
        },
      ];
      const first = await client.responses.create({ model: "gpt-4o-mini", input: fresh("Weather in Rome?"), tools });
      const fc = first.output.find((o) => o.type === "function_call") as any;
      expect(fc).toMatchObject({ name: "get_weather", call_id: "call_r1", arguments: JSON.stringify({ city: "Rome" }) });
      const second = await client.responses.create({
        model: "gpt-4o-mini",
        previous_response_id: first.id,
        input: [{ type: "function_call_output", call_id: fc.call_id, output: "22 C" }],
        tools,
      });
      expect(second.output_text).toContain("heard:");
      const sent = lastBody(rig.openai).messages;
      expect(sent.at(-2)).toMatchObject({ role: "assistant", tool_calls: [{ id: "call_r1" }] });
      expect(sent.at(-1)).toEqual({ role: "tool", tool_call_id: "call_r1", content: "22 C" });
    } finally {
      rig.openai.toolCall = undefined;
    }
  });

  test("structured output: text.format json_schema becomes response_format", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    rig.openai.fixedText = JSON.stringify({ city: "Lyon" });
    try {
      const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
      const r = await client.responses.create({
        model: "gpt-4o-mini",
        input: fresh("A French city"),
        text: { format: { type: "json_schema", name: "city", schema, strict: true } },
      });
      expect(JSON.parse(r.output_text)).toEqual({ city: "Lyon" });
      expect(lastBody(rig.openai).response_format).toEqual({ type: "json_schema", json_schema: { name: "city", schema, strict: true } });
    } finally {
      rig.openai.fixedText = undefined;
    }
  });

  test("previous_response_id continues the stored conversation", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const first = await client.responses.create({ model: "gpt-4o-mini", input: fresh("My name is Ada") });
    await client.responses.create({ model: "gpt-4o-mini", previous_response_id: first.id, input: fresh("What is my name?") });
    const sent = lastBody(rig.openai).messages;
    expect(sent[0].content).toContain("My name is Ada");
    expect(sent[1]).toMatchObject({ role: "assistant", content: first.output_text });
  });
});

test("an unknown previous_response_id and a hosted tool are 400s naming the field", async () => {
  const a = await call(`${rig.baseURL}/responses`, rig.admin.key, { body: { model: "gpt-4o-mini", input: "hi", previous_response_id: "resp_nope" } });
  expect(a.status).toBe(400);
  expect(((await a.json()) as any).error.param).toBe("previous_response_id");
  const b = await call(`${rig.baseURL}/responses`, rig.admin.key, { body: { model: "gpt-4o-mini", input: "hi", tools: [{ type: "web_search" }] } });
  expect(b.status).toBe(400);
  expect(((await b.json()) as any).error.param).toBe("tools[0].type");
});
