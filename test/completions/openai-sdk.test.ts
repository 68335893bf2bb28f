import { beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { rigPerFile } from "./support";

const rig = rigPerFile();
let client: OpenAI;
beforeAll(() => {
  client = new OpenAI({ baseURL: `${rig.gw.url}/v1`, apiKey: rig.admin.key, maxRetries: 0 });
});

const messages = [{ role: "user" as const, content: "What is the capital of France?" }];

describe("the openai SDK with only baseURL and apiKey changed", () => {
  test("a normal call", async () => {
    const r = await client.chat.completions.create({ model: "gpt-4o-mini", messages });
    expect(r.id).toStartWith("svc_req_");
    expect(r.model).toBe("gpt-4o-mini-2024-07-18");
    expect(r.choices[0]!.message.content).toBe(rig.openai.replies.at(-1)!.text);
    expect((r as any).svc_meta.model_requested).toBe("gpt-4o-mini");
  });

  test("a streamed call delivers every chunk and the final svc_meta", async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "What is the capital of Italy?" }],
      stream: true,
    });
    let text = "";
    let meta: any;
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      if ((chunk as any).svc_meta) meta = (chunk as any).svc_meta;
    }
    expect(text).toBe(rig.openai.replies.at(-1)!.text);
    expect(finish).toBe("stop");
    expect(meta.cache_hit).toBe(false);
  });

  test("a bad key surfaces as the SDK's AuthenticationError", async () => {
    const bad = new OpenAI({ baseURL: `${rig.gw.url}/v1`, apiKey: "svc_live_nope", maxRetries: 0 });
    const err = await bad.chat.completions.create({ model: "gpt-4o-mini", messages }).catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.status).toBe(401);
    expect(err.code).toBe("INVALID_KEY");
  });

  test("models.list()", async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toContain("auto");
    expect(ids).toContain("gpt-4o-mini-2024-07-18");
    expect(ids).toContain("claude-3-opus-20240229");
  });
});
