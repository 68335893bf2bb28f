import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { cosineOfUnit as cosine } from "../../src/ml/cosine";
import { dropInRig, lastBody, SDKS } from "./support";

const rig = dropInRig();

describe.each(SDKS)("POST /v1/embeddings with $name", ({ make }) => {
  test("svc's own model, svc-embed-1, by the SDK's default base64 encoding", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const r = await client.embeddings.create({
      model: "svc-embed-1",
      input: ["How do I reset my password?", "I forgot my password, how can I reset it?", "Best pizza dough recipe"],
    });
    expect(r.model).toBe("svc-embed-1");
    expect(r.data).toHaveLength(3);
    const [a, b, c] = r.data.map((d) => Float32Array.from(d.embedding));
    expect(a!.length).toBe(256);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(a!, c!));
    expect(r.usage.prompt_tokens).toBeGreaterThan(0);
  });

  test("an OpenAI embedding model is forwarded, body and answer unchanged", async () => {
    const client = make(rig.baseURL, rig.admin.key);
    const r = await client.embeddings.create({ model: "text-embedding-3-small", input: "hello there", dimensions: 4 });
    expect(lastBody(rig.openai)).toMatchObject({ model: "text-embedding-3-small", input: "hello there", dimensions: 4 });
    expect(r.data[0]!.embedding).toHaveLength(4);
    expect(r.data[0]!.embedding[0]).toBe("hello there".length);
  });
});

test("a model whose provider has no OpenAI-format embeddings is a 400 naming the model", async () => {
  const res = await call(`${rig.baseURL}/embeddings`, rig.admin.key, { body: { model: "claude-3-haiku", input: "x" } });
  expect(res.status).toBe(400);
  expect(((await res.json()) as any).error.param).toBe("model");
});

test("bad input is a 400 naming the field", async () => {
  const res = await call(`${rig.baseURL}/embeddings`, rig.admin.key, { body: { model: "svc-embed-1", input: [] } });
  expect(res.status).toBe(400);
  expect(((await res.json()) as any).error.param).toBe("input");
});
