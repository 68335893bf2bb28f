import type OpenAI from "openai";
import { ChatOpenAI } from "@langchain/openai";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, Output, stepCountIs, streamText, tool } from "ai";
import { z } from "zod";
import { SDKS } from "./support";

/**
 * What the suite asks of every client, written the way each client's own documentation does it. A
 * client is constructed with svc's base URL and key and nothing else.
 */
export interface ClientUnderTest {
  name: string;
  chat(model: string, prompt: string): Promise<string>;
  stream(model: string, prompt: string): Promise<string>;
  /** One tool offered: the call the model made. */
  toolCall(model: string, prompt: string): Promise<{ name: string; args: unknown }>;
  /** The whole loop: the client runs the tool and sends its result back; the final text. */
  toolLoop(model: string, prompt: string, run: (args: { city: string }) => string): Promise<string>;
  /** Structured output with a JSON schema, parsed by the client. */
  structured(model: string, prompt: string): Promise<{ city: string; population: number }>;
  /** A user message with an image (data URL) beside the text. */
  image(model: string, prompt: string, dataUrl: string): Promise<string>;
}

export const CITY = z.object({ city: z.string(), population: z.number() });
const CITY_JSON_SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, population: { type: "number" } },
  required: ["city", "population"],
  additionalProperties: false,
};
const WEATHER_TOOL = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  },
};

function openaiClient(name: string, make: (baseURL: string, key: string) => OpenAI, baseURL: string, key: string): ClientUnderTest {
  const client = make(baseURL, key);
  return {
    name,
    async chat(model, prompt) {
      const r = await client.chat.completions.create({ model, messages: [{ role: "user", content: prompt }] });
      return r.choices[0]!.message.content ?? "";
    },
    async stream(model, prompt) {
      const s = await client.chat.completions.create({ model, messages: [{ role: "user", content: prompt }], stream: true });
      let text = "";
      for await (const chunk of s) text += chunk.choices[0]?.delta?.content ?? "";
      return text;
    },
    async toolCall(model, prompt) {
      const r = await client.chat.completions.create({ model, messages: [{ role: "user", content: prompt }], tools: [WEATHER_TOOL] });
      const call = r.choices[0]!.message.tool_calls![0]! as { function: { name: string; arguments: string } };
      return { name: call.function.name, args: JSON.parse(call.function.arguments) };
    },
    async toolLoop(model, prompt, run) {
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: prompt }];
      for (let step = 0; step < 4; step++) {
        const r = await client.chat.completions.create({ model, messages, tools: [WEATHER_TOOL] });
        const msg = r.choices[0]!.message;
        if (!msg.tool_calls?.length) return msg.content ?? "";
        messages.push(msg);
        for (const call of msg.tool_calls as { id: string; function: { arguments: string } }[]) {
          messages.push({ role: "tool", tool_call_id: call.id, content: run(JSON.parse(call.function.arguments)) });
        }
      }
      throw new Error("the tool loop did not end");
    },
    async structured(model, prompt) {
      const r = await client.chat.completions.create({
        model,
        messages: [{ role: "user", content: prompt }],
        response_format: { type: "json_schema", json_schema: { name: "city", strict: true, schema: CITY_JSON_SCHEMA } },
      });
      return CITY.parse(JSON.parse(r.choices[0]!.message.content ?? ""));
    },
    async image(model, prompt, dataUrl) {
      const r = await client.chat.completions.create({
        model,
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: prompt },
              { type: "image_url", image_url: { url: dataUrl } },
            ],
          },
        ],
      });
      return r.choices[0]!.message.content ?? "";
    },
  };
}

function langchainClient(baseURL: string, key: string): ClientUnderTest {
  const make = (model: string) => new ChatOpenAI({ model, apiKey: key, configuration: { baseURL } });
  const weather = { type: "function" as const, function: WEATHER_TOOL.function };
  return {
    name: "LangChain ChatOpenAI",
    async chat(model, prompt) {
      return String((await make(model).invoke(prompt)).content);
    },
    async stream(model, prompt) {
      let text = "";
      for await (const chunk of await make(model).stream(prompt)) text += String(chunk.content);
      return text;
    },
    async toolCall(model, prompt) {
      const r = await make(model).bindTools([weather]).invoke(prompt);
      const call = r.tool_calls![0]!;
      return { name: call.name, args: call.args };
    },
    async toolLoop(model, prompt, run) {
      const { HumanMessage, ToolMessage } = await import("@langchain/core/messages");
      const llm = make(model).bindTools([weather]);
      const messages: import("@langchain/core/messages").BaseMessage[] = [new HumanMessage(prompt)];
      for (let step = 0; step < 4; step++) {
        const r = await llm.invoke(messages);
        if (!r.tool_calls?.length) return String(r.content);
        messages.push(r);
        for (const call of r.tool_calls) messages.push(new ToolMessage({ tool_call_id: call.id!, content: run(call.args as { city: string }) }));
      }
      throw new Error("the tool loop did not end");
    },
    async structured(model, prompt) {
      return CITY.parse(await make(model).withStructuredOutput(CITY, { method: "jsonSchema", name: "city" }).invoke(prompt));
    },
    async image(model, prompt, dataUrl) {
      const { HumanMessage } = await import("@langchain/core/messages");
      const r = await make(model).invoke([
        new HumanMessage({
          content: [
            { type: "text", text: prompt },
            { type: "image_url", image_url: { url: dataUrl } },
          ],
        }),
      ]);
      return String(r.content);
    },
  };
}

/** The Vercel AI SDK: `.chat()` speaks Chat Completions; the provider's default speaks the Responses API. */
function aiSdkClient(
  name: string,
  pick: (p: ReturnType<typeof createOpenAI>, model: string) => Parameters<typeof generateText>[0]["model"],
  baseURL: string,
  key: string,
): ClientUnderTest {
  const provider = createOpenAI({ baseURL, apiKey: key });
  const input = z.object({ city: z.string() });
  const weather = (run?: (a: { city: string }) => string) =>
    run
      ? tool({ description: "Current weather in a city", inputSchema: input, execute: async (a) => run(a) })
      : tool({ description: "Current weather in a city", inputSchema: input });
  return {
    name,
    async chat(model, prompt) {
      return (await generateText({ model: pick(provider, model), prompt })).text;
    },
    async stream(model, prompt) {
      const r = streamText({ model: pick(provider, model), prompt });
      let text = "";
      for await (const part of r.textStream) text += part;
      return text;
    },
    async toolCall(model, prompt) {
      const r = await generateText({ model: pick(provider, model), prompt, tools: { get_weather: weather() } });
      const call = r.toolCalls[0]!;
      return { name: call.toolName, args: call.input };
    },
    async toolLoop(model, prompt, run) {
      const r = await generateText({ model: pick(provider, model), prompt, tools: { get_weather: weather(run) }, stopWhen: stepCountIs(4) });
      return r.text;
    },
    async structured(model, prompt) {
      const r = await generateText({ model: pick(provider, model), prompt, output: Output.object({ schema: CITY }) });
      return CITY.parse(r.output);
    },
    async image(model, prompt, dataUrl) {
      const r = await generateText({
        model: pick(provider, model),
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: prompt },
              { type: "image", image: dataUrl },
            ],
          },
        ],
      });
      return r.text;
    },
  };
}

export function clientsUnderTest(baseURL: string, key: string, opts: { responses: boolean }): ClientUnderTest[] {
  const clients = [
    ...SDKS.map((s) => openaiClient(s.name, (u, k) => s.make(u, k), baseURL, key)),
    langchainClient(baseURL, key),
    aiSdkClient("AI SDK .chat()", (p, m) => p.chat(m), baseURL, key),
  ];
  if (opts.responses) clients.push(aiSdkClient("AI SDK default", (p, m) => p(m), baseURL, key));
  return clients;
}

export const CLIENT_NAMES = [...SDKS.map((s) => s.name), "LangChain ChatOpenAI", "AI SDK .chat()", "AI SDK default"];
