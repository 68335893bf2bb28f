import { describe, expect, test } from "bun:test";
import { call, startGateway } from "../support/gateway-process";
import { readSse, rigPerFile, waitForKey } from "./support";

const rig = rigPerFile();

const CACHED = { compress: false, route: false, cache: true, score: false };
const ask = (content: string, extra: Record<string, unknown> = {}, key = rig.admin.key, url = rig.gw.url) =>
  call(`${url}/v1/complete`, key, { body: { model: "gpt-4o-mini", messages: [{ role: "user", content }], svc_options: CACHED, ...extra } });
const upstreamCalls = () => rig.openai.requests.length;

describe("the cache on /v1/complete", () => {
  test("an exact repeat is answered from the cache: no provider call, cost 0, the producing model", async () => {
    const first = (await (await ask("What is the boiling point of water at sea level in Celsius?")).json()) as any;
    expect(first.svc_meta.cache_hit).toBe(false);
    const before = upstreamCalls();
    const again = (await (await ask("What is the boiling point of water at sea level in Celsius?")).json()) as any;
    expect(upstreamCalls()).toBe(before);
    expect(again.svc_meta).toMatchObject({ cache_hit: true, routing_reason: "cache_hit", cost_actual_usd: 0 });
    expect(again.svc_meta.saved_usd).toBe(again.svc_meta.cost_original_usd);
    expect(again.model).toBe(first.model);
    expect(again.choices[0].message.content).toBe(first.choices[0].message.content);
    expect(again.id).not.toBe(first.id);
  });

  test("a paraphrase hits; a changed number, negation or direction does not", async () => {
    await ask("Which ocean is the largest?");
    const before = upstreamCalls();
    const para = (await (await ask("Which is the largest ocean?")).json()) as any;
    expect(para.svc_meta.cache_hit).toBe(true);
    expect(upstreamCalls()).toBe(before);
    await ask("What is 2+3?");
    for (const near of ["What is 2*3?", "What is 2+4?"]) {
      const r = (await (await ask(near)).json()) as any;
      expect(r.svc_meta.cache_hit).toBe(false);
    }
    await ask("How do I turn on dark mode in the settings app?");
    expect(((await (await ask("How do I turn off dark mode in the settings app?")).json()) as any).svc_meta.cache_hit).toBe(false);
    await ask("Should I enable two-factor authentication?");
    expect(((await (await ask("Should I not enable two-factor authentication?")).json()) as any).svc_meta.cache_hit).toBe(false);
  });

  test("tenants never share entries", async () => {
    await ask("Name three primary colours.");
    const other = await rig.gw.cliKey(["--admin", "--app", "other-app"]);
    await waitForKey(rig.gw.url, other.key);
    const r = (await (await ask("Name three primary colours.", {}, other.key)).json()) as any;
    expect(r.svc_meta.cache_hit).toBe(false);
  });

  test("a streamed request is replayed from the cache as SSE, ending with svc_meta and [DONE]", async () => {
    const first = (await (await ask("Give me a one-line definition of entropy.")).json()) as any;
    const before = upstreamCalls();
    const frames = await readSse(await ask("Give me a one-line definition of entropy.", { stream: true }));
    expect(upstreamCalls()).toBe(before);
    expect(frames.at(-1)).toBe("[DONE]");
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f));
    expect(chunks.map((c) => c.choices[0].delta.content ?? "").join("")).toBe(first.choices[0].message.content);
    expect(chunks.at(-1).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
    expect(chunks.at(-1).svc_meta).toMatchObject({ cache_hit: true, routing_reason: "cache_hit" });
  });

  test("a streamed answer fills the cache for the next request", async () => {
    await readSse(await ask("List the planets of the solar system in order.", { stream: true }));
    await Bun.sleep(50);
    const before = upstreamCalls();
    const r = (await (await ask("List the planets of the solar system in order.")).json()) as any;
    expect(r.svc_meta.cache_hit).toBe(true);
    expect(upstreamCalls()).toBe(before);
  });

  test("50 concurrent identical requests make one upstream call", async () => {
    rig.openai.latencyMs = 300;
    try {
      const before = upstreamCalls();
      const all = await Promise.all(Array.from({ length: 50 }, () => ask("Summarise the plot of Hamlet in two sentences.")));
      const statuses = all.map((r) => r.status);
      expect(statuses).toEqual(Array(50).fill(200));
      expect(upstreamCalls() - before).toBe(1);
      const bodies = (await Promise.all(all.map((r) => r.json()))) as any[];
      expect(new Set(bodies.map((b) => b.choices[0].message.content)).size).toBe(1);
      expect(bodies.filter((b) => b.svc_meta.cache_hit).length).toBe(49);
    } finally {
      rig.openai.latencyMs = 0;
    }
  });

  test("a failed upstream call caches nothing", async () => {
    rig.openai.failNext(3, 500);
    expect((await ask("Translate 'good morning' into Italian.")).status).toBe(502);
    const before = upstreamCalls();
    const r = (await (await ask("Translate 'good morning' into Italian.")).json()) as any;
    expect(r.svc_meta.cache_hit).toBe(false);
    expect(upstreamCalls()).toBe(before + 1);
  });

  test("the cache survives a restart", async () => {
    const first = (await (await ask("Which river is the longest?")).json()) as any;
    await Bun.sleep(600);
    const { dataDir, env } = rig.gw;
    rig.gw.proc.kill("SIGTERM");
    await rig.gw.finished();
    rig.gw = await startGateway(env, { dataDir });
    const before = upstreamCalls();
    const again = (await (await ask("Which river is the longest?")).json()) as any;
    expect(again.svc_meta.cache_hit).toBe(true);
    expect(again.choices[0].message.content).toBe(first.choices[0].message.content);
    expect(upstreamCalls()).toBe(before);
  });

  test("the operator sets the size bound and the time to live (SVC_CACHE_MAX_ENTRIES, SVC_CACHE_TTL_S)", async () => {
    const { env } = rig.gw;
    const bounded = await startGateway({ ...env, SVC_CACHE_MAX_ENTRIES: "1", SVC_CACHE_TTL_S: "1" });
    try {
      const hitOf = async (content: string) => ((await (await ask(content, {}, rig.admin.key, bounded.url)).json()) as any).svc_meta.cache_hit as boolean;
      await hitOf("Name the largest desert on Earth.");
      expect(await hitOf("Name the largest desert on Earth.")).toBe(true);
      await hitOf("Name the tallest mountain in Africa.");
      // One entry fits: the newer answer pushed the older one out.
      expect(await hitOf("Name the largest desert on Earth.")).toBe(false);
      expect(await hitOf("Name the largest desert on Earth.")).toBe(true);
      await Bun.sleep(1100);
      expect(await hitOf("Name the largest desert on Earth.")).toBe(false);
    } finally {
      bounded.proc.kill("SIGTERM");
      await bounded.finished();
    }
  });
});
