import { afterAll, describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { OFF, readSse, rigPerFile } from "../completions/support";
import { tracingEnabled } from "../../src/pipeline/trace";
import { STAGES } from "../../src/pipeline/stages";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: OtlpValue }[];
}

/** An OTLP/HTTP receiver: decodes each JSON export the gateway posts to /v1/traces. */
const spans: OtlpSpan[] = [];
const resources: Record<string, unknown>[] = [];
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    if (new URL(req.url).pathname !== "/v1/traces" || req.method !== "POST") return new Response("no", { status: 404 });
    expect(req.headers.get("content-type")).toStartWith("application/json");
    const body = (await req.json()) as { resourceSpans: { resource: { attributes: OtlpSpan["attributes"] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
    for (const rs of body.resourceSpans) {
      resources.push(attributesOf(rs.resource.attributes));
      for (const ss of rs.scopeSpans) spans.push(...ss.spans);
    }
    return Response.json({});
  },
});
afterAll(() => receiver.stop(true));

const rig = rigPerFile({
  OTEL_TRACES_EXPORTER: "otlp",
  OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
  OTEL_BSP_SCHEDULE_DELAY: "50",
  OTEL_SERVICE_NAME: "svc-under-test",
});

function attributesOf(list: OtlpSpan["attributes"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list)
    out[key] = value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined) ?? value.boolValue ?? value.doubleValue;
  return out;
}

/** The spans of the trace whose server span carries `requestId`, once all of them have arrived. */
async function traceOf(requestId: string): Promise<{ root: OtlpSpan; spans: OtlpSpan[] }> {
  for (let i = 0; i < 200; i++) {
    const root = spans.find((s) => attributesOf(s.attributes)["svc.request_id"] === requestId);
    if (root) {
      await Bun.sleep(100);
      return { root, spans: spans.filter((s) => s.traceId === root.traceId) };
    }
    await Bun.sleep(25);
  }
  throw new Error(`no trace for ${requestId}`);
}

const ask = (body: Record<string, unknown>) => call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body });
const prompt = (text: string) => [{ role: "user", content: text }];

describe("OpenTelemetry traces over OTLP/HTTP", () => {
  test("tracing is off unless the OTEL_* variables ask for an OTLP exporter", () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" })).toBe(false);
    expect(tracingEnabled({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" })).toBe(false);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://x/v1/traces" })).toBe(true);
  });

  test("one trace per call, a span per stage, GenAI and svc attributes", async () => {
    const res = await ask({ model: "gpt-4o-mini", messages: prompt("Say hello to the team in one short sentence."), svc_options: { ...OFF, cache: true } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const { root, spans: all } = await traceOf(body.id);
    expect(new Set(all.map((s) => s.traceId)).size).toBe(1);
    expect(root.parentSpanId ?? "").toBe("");
    expect(root.kind).toBe(2); // SERVER
    const a = attributesOf(root.attributes);
    expect(a).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
      "gen_ai.usage.input_tokens": body.usage.prompt_tokens,
      "gen_ai.usage.output_tokens": body.usage.completion_tokens,
      "svc.cache_hit": false,
      "svc.routing_reason": "explicit_model",
      "http.route": "/v1/complete",
      "http.response.status_code": 200,
    });
    expect(a["svc.saved_usd"]).toBeCloseTo(body.svc_meta.saved_usd, 12);
    const names = all
      .filter((s) => s !== root)
      .map((s) => s.name)
      .sort();
    expect(names.filter((n) => !n.startsWith("svc.stage."))).toEqual([
      "chat gpt-4o-mini-2024-07-18",
      "svc.admit",
      "svc.cache.lookup",
      "svc.optimize",
      "svc.settle",
    ]);
    // One `before` span per stage in the list.
    const befores = names.filter((n) => n.startsWith("svc.stage."));
    expect(befores).toHaveLength(STAGES.length);
    for (const stage of ["quota", "cache-fill", "usage-recordable"]) expect(befores).toContain(`svc.stage.${stage}.before`);
    const byName = new Map(all.map((s) => [s.name, s]));
    for (const n of ["svc.admit", "svc.optimize", "svc.cache.lookup", "svc.settle", "chat gpt-4o-mini-2024-07-18"])
      expect(byName.get(n)!.parentSpanId).toBe(root.spanId);
    expect(byName.get("svc.stage.quota.before")!.parentSpanId).toBe(byName.get("svc.admit")!.spanId);
    const upstream = byName.get("chat gpt-4o-mini-2024-07-18")!;
    expect(upstream.kind).toBe(3); // CLIENT
    expect(attributesOf(upstream.attributes)).toMatchObject({
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini-2024-07-18",
      "svc.attempt_outcome": "ok",
    });
    // Every child lies within the call, and the stages follow each other.
    for (const s of all) {
      expect(BigInt(s.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root.startTimeUnixNano));
      expect(BigInt(s.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(root.endTimeUnixNano));
    }
    expect(BigInt(byName.get("svc.optimize")!.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(byName.get("svc.cache.lookup")!.startTimeUnixNano) + 1000n);
    expect(resources.at(-1)).toMatchObject({ "service.name": "svc-under-test" });

    // The same prompt again: answered from the cache, no upstream span.
    const again = (await (
      await ask({ model: "gpt-4o-mini", messages: prompt("Say hello to the team in one short sentence."), svc_options: { ...OFF, cache: true } })
    ).json()) as any;
    const hit = await traceOf(again.id);
    expect(hit.root.traceId).not.toBe(root.traceId);
    expect(attributesOf(hit.root.attributes)).toMatchObject({ "svc.cache_hit": true, "svc.routing_reason": "cache_hit" });
    expect(hit.spans.filter((s) => s.name.startsWith("chat gpt"))).toEqual([]);
  });

  test("a retried stream: one span per upstream attempt, the failed one marked", async () => {
    rig.openai.failNext(1, 503);
    const res = await ask({ model: "gpt-4o-mini", messages: prompt("Count to three."), stream: true, svc_options: OFF });
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id")!;
    expect((await readSse(res)).at(-1)).toBe("[DONE]");
    const { root, spans: all } = await traceOf(requestId);
    const attempts = all.filter((s) => s.name === "chat gpt-4o-mini-2024-07-18");
    expect(attempts).toHaveLength(2);
    const [first, second] = attempts
      .sort((x, y) => (BigInt(x.startTimeUnixNano) < BigInt(y.startTimeUnixNano) ? -1 : 1))
      .map((s) => attributesOf(s.attributes));
    expect(first).toMatchObject({ "svc.attempt_outcome": "http", "error.type": "http", "http.response.status_code": 503 });
    expect(second).toMatchObject({ "svc.attempt_outcome": "ok" });
    expect(attributesOf(root.attributes)).toMatchObject({ "svc.stream": true, "gen_ai.response.model": "gpt-4o-mini-2024-07-18" });
    expect(attributesOf(root.attributes)["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
  });
});
