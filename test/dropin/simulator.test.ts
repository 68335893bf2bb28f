import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { z } from "zod";
import { startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { waitForKey } from "../completions/support";
import { SDKS } from "./support";

/** A fresh install (no provider key): agent and structured-output code works on a first try, deterministically. */
let gw: GatewayProcess;
let admin: KeyCreated;
beforeAll(async () => {
  gw = await startGateway({ OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" });
  admin = await gw.cliKey(["--admin"]);
  await waitForKey(gw.url, admin.key);
}, 60_000);
afterAll(() => gw.stop(), 30_000);

const client = () => SDKS[0].make(`${gw.url}/v1`, admin.key);
const tools = [
  {
    type: "function" as const,
    function: {
      name: "search_docs",
      description: "Search the product documentation",
      parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  },
  {
    type: "function" as const,
    function: {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] }, days: { type: "integer", minimum: 1, maximum: 7 } },
        required: ["city", "unit", "days"],
        additionalProperties: false,
      },
    },
  },
];

describe("the simulator", () => {
  test("calls the tool that matches the question, with arguments valid for its schema, then answers the result in text", async () => {
    const ask = {
      model: "gpt-4o-mini",
      messages: [{ role: "user" as const, content: "What is the weather in Lisbon this week?" }],
      tools,
      svc_options: { cache: false },
    };
    const first = await client().chat.completions.create(ask);
    const msg = first.choices[0]!.message;
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(msg.content).toBeNull();
    const call = msg.tool_calls![0]! as { id: string; function: { name: string; arguments: string } };
    expect(call.function.name).toBe("get_weather");
    const args = z
      .object({ city: z.string(), unit: z.enum(["celsius", "fahrenheit"]), days: z.number().int().min(1).max(7) })
      .strict()
      .parse(JSON.parse(call.function.arguments));
    expect(args.unit).toBe("celsius");
    const again = await client().chat.completions.create(ask);
    expect(again.choices[0]!.message.tool_calls).toEqual(msg.tool_calls);
    const done = await client().chat.completions.create({
      ...ask,
      messages: [...ask.messages, msg, { role: "tool", tool_call_id: call.id, content: "18 C and sunny" }],
    });
    expect(done.choices[0]!.finish_reason).toBe("stop");
    expect(done.choices[0]!.message.content).toContain("18 C and sunny");
  });

  test("json_schema: a valid instance of the schema, nested objects, arrays and refs included", async () => {
    const schema = {
      type: "object",
      properties: {
        title: { type: "string", minLength: 3 },
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
        author: { $ref: "#/$defs/person" },
        rating: { anyOf: [{ type: "null" }, { type: "number", minimum: 1, maximum: 5 }] },
      },
      required: ["title", "tags", "author", "rating"],
      additionalProperties: false,
      $defs: {
        person: {
          type: "object",
          properties: { name: { type: "string" }, email: { type: "string", format: "email" } },
          required: ["name", "email"],
          additionalProperties: false,
        },
      },
    };
    const r = await client().chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Describe the book Dune as a catalogue record" }],
      response_format: { type: "json_schema", json_schema: { name: "book", strict: true, schema } },
    });
    const parsed = z
      .object({
        title: z.string().min(3),
        tags: z.array(z.string()).min(2),
        author: z.object({ name: z.string(), email: z.string().email() }).strict(),
        rating: z.number().min(1).max(5).nullable(),
      })
      .strict()
      .parse(JSON.parse(r.choices[0]!.message.content!));
    expect(parsed.tags).toHaveLength(2);
  });

  test("JSON mode answers a JSON object", async () => {
    const r = await client().chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "List three colours as JSON" }],
      response_format: { type: "json_object" },
    });
    expect(typeof JSON.parse(r.choices[0]!.message.content!)).toBe("object");
  });

  test("n choices, each different", async () => {
    const r = await client().chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "Suggest a name for a sailing boat" }],
      n: 3,
    });
    expect(r.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    expect(new Set(r.choices.map((c) => c.message.content)).size).toBe(3);
  });
});
