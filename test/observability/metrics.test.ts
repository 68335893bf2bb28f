import { describe, expect, test } from "bun:test";
import parsePrometheusTextFormat, { type Family } from "parse-prometheus-text-format";
import { call } from "../support/gateway-process";
import { OFF, rigPerFile } from "../completions/support";

const rig = rigPerFile();

const ask = (body: Record<string, unknown>, path = "/v1/complete") => call(`${rig.gw.url}${path}`, rig.admin.key, { body });
const prompt = (text: string) => [{ role: "user", content: text }];

/**
 * The families, by name. The parser merges a labelled histogram's series into one (it keeps only the
 * buckets of an unlabelled one), so each histogram's `_count` samples are also parsed on their own, as
 * a family kept under `count:<name>_count` whose samples keep their labels.
 */
async function scrape(): Promise<Map<string, Family>> {
  const res = await call(`${rig.gw.url}/metrics`, rig.admin.key);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/plain");
  const text = await res.text();
  const families = parsePrometheusTextFormat(text);
  const counts = families
    .filter((f) => f.type === "HISTOGRAM")
    .map((f) =>
      [`# TYPE ${f.name}_count counter`, ...text.split("\n").filter((l) => l.startsWith(`${f.name}_count{`) || l.startsWith(`${f.name}_count `))].join("\n"),
    );
  const countFamilies = parsePrometheusTextFormat(counts.join("\n") + "\n").map((f) => [`count:${f.name}`, f] as const);
  return new Map([...families.map((f) => [f.name, f] as const), ...countFamilies]);
}

/** The family `name` of type `type` whose every series has exactly `labels`; for a histogram, its `_count` series. */
function family(all: Map<string, Family>, name: string, type: Family["type"], labels: string[]): Family {
  const f = all.get(name);
  expect(f, name).toBeDefined();
  expect(f!.type).toBe(type);
  const samples = type === "HISTOGRAM" ? all.get(`count:${name}_count`)! : f!;
  expect(samples.metrics.length).toBeGreaterThan(0);
  for (const s of samples.metrics) expect(Object.keys(s.labels ?? {}).sort()).toEqual([...labels].sort());
  return samples;
}

const series = (f: Family, labels: Record<string, string>) => f.metrics.filter((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
const total = (f: Family, labels: Record<string, string> = {}) => series(f, labels).reduce((n, s) => n + Number(s.value), 0);

describe("GET /metrics, parsed as the Prometheus text format", () => {
  test("names, types, labels and values of what the calls did", async () => {
    expect((await ask({ model: "gpt-4o-mini", messages: prompt("Say hello to the team in one short sentence."), svc_options: OFF })).status).toBe(200);
    expect((await ask({ model: "gpt-4o-mini", messages: prompt("Say hello in French."), svc_options: OFF }, "/v1/chat/completions")).status).toBe(200);
    // The same prompt twice with the cache on: the second is answered from the cache.
    const cached = { model: "gpt-4o-mini", messages: prompt("Name three primary colours, briefly."), svc_options: { ...OFF, cache: true } };
    expect((await ask(cached)).status).toBe(200);
    const second = (await (await ask(cached)).json()) as any;
    expect(second.svc_meta.cache_hit).toBe(true);
    // One 503 then an answer: one failed attempt, one retry on the same model.
    rig.openai.failNext(1, 503);
    expect((await ask({ model: "gpt-4o-mini", messages: prompt("Count to three."), svc_options: OFF })).status).toBe(200);

    const all = await scrape();
    const exposed = [...all.values()].filter((f) => all.get(f.name) === f);
    for (const f of exposed) {
      expect(f.name).toMatch(/^svc_[a-z0-9_]+$/);
      if (f.type === "COUNTER") expect(f.name).toEndWith("_total");
      if (f.type === "HISTOGRAM" && f.name.startsWith("svc_") && !f.name.startsWith("svc_process_")) expect(f.name).toEndWith("_seconds");
    }
    const completions = family(all, "svc_completions_total", "COUNTER", ["route", "status", "model", "cache_hit"]);
    expect(total(completions, { route: "/v1/complete", status: "200", model: "gpt-4o-mini-2024-07-18", cache_hit: "false" })).toBe(3);
    expect(total(completions, { route: "/v1/complete", status: "200", model: "gpt-4o-mini-2024-07-18", cache_hit: "true" })).toBe(1);
    expect(total(completions, { route: "/v1/chat/completions", status: "200" })).toBe(1);
    const duration = family(all, "svc_completion_duration_seconds", "HISTOGRAM", ["route", "status", "model"]);
    expect(total(duration, { route: "/v1/complete", status: "200", model: "gpt-4o-mini-2024-07-18" })).toBe(4);
    expect(total(family(all, "svc_overhead_seconds", "HISTOGRAM", []))).toBe(5);
    const stages = family(all, "svc_stage_duration_seconds", "HISTOGRAM", ["stage"]);
    for (const stage of ["admit", "optimize", "cache_lookup", "settle"]) expect(total(stages, { stage })).toBe(5);
    expect(total(stages, { stage: "upstream" })).toBe(4);
    const lookups = family(all, "svc_cache_lookups_total", "COUNTER", ["result", "layer"]);
    expect(total(lookups, { result: "hit" })).toBe(1);
    expect(total(lookups, { result: "miss" })).toBe(1);
    expect(total(lookups, { result: "bypass", layer: "none" })).toBe(3);
    const saved = family(all, "svc_saved_usd_total", "COUNTER", ["source"]);
    expect(total(saved, { source: "cache" })).toBeGreaterThan(0);
    // The one cache hit is the cache's whole series, split as its svc_meta.saved_by_source (and the ledger) split it.
    expect(total(saved, { source: "cache" })).toBeCloseTo(second.svc_meta.saved_by_source.cache, 12);
    expect(total(family(all, "svc_saved_tokens_total", "COUNTER", ["source"]), { source: "cache" })).toBeGreaterThan(0);
    expect(Number(family(all, "svc_cost_usd_total", "COUNTER", []).metrics[0]!.value)).toBeGreaterThan(0);
    const attempts = family(all, "svc_provider_attempts_total", "COUNTER", ["provider", "outcome"]);
    expect(total(attempts, { provider: "openai", outcome: "ok" })).toBe(4);
    expect(total(attempts, { provider: "openai" })).toBe(5);
    expect(total(family(all, "svc_provider_retries_total", "COUNTER", ["provider"]), { provider: "openai" })).toBe(1);
    expect(all.get("svc_provider_fallbacks_total")!.type).toBe("COUNTER");
    expect(family(all, "svc_worker_queue_depth", "GAUGE", []).metrics[0]!.value).toBe("0");
    const http = family(all, "svc_http_requests_total", "COUNTER", ["route", "method", "status"]);
    expect(total(http, { route: "/v1/complete", method: "POST", status: "200" })).toBe(4);
    family(all, "svc_http_request_duration_seconds", "HISTOGRAM", ["route", "method", "status"]);
  });

  test("label values stay bounded: unknown models are one 'other' series, unknown paths one 'unmatched' route, no key values", async () => {
    for (let i = 0; i < 25; i++) {
      expect((await ask({ model: `no-such-model-${i}`, messages: prompt("hi"), svc_options: OFF })).status).toBe(400);
      // Unlisted names a provider serves are answered, and still one label value.
      expect((await ask({ model: `gpt-unlisted-${i}`, messages: prompt("hi"), svc_options: OFF })).status).toBe(200);
      expect((await call(`${rig.gw.url}/v1/no-such-path-${i}`, rig.admin.key)).status).toBe(404);
    }
    const all = await scrape();
    const completions = all.get("svc_completions_total")!;
    expect(completions.metrics.filter((s) => /no-such|unlisted/.test(s.labels!.model!))).toEqual([]);
    expect(series(completions, { model: "other", status: "400" })).toHaveLength(1);
    expect(total(completions, { model: "other", status: "400" })).toBe(25);
    expect(series(completions, { model: "other", status: "200" })).toHaveLength(1);
    expect(total(completions, { model: "other", status: "200" })).toBe(25);
    const http = all.get("svc_http_requests_total")!;
    expect(http.metrics.filter((s) => s.labels!.route!.includes("no-such"))).toEqual([]);
    expect(series(http, { route: "unmatched", status: "404" })).toHaveLength(1);
    const text = await (await call(`${rig.gw.url}/metrics`, rig.admin.key)).text();
    expect(text).not.toContain(rig.admin.key);
    expect(text).not.toContain(rig.admin.key.slice(0, 12));
  });

  test("svc_http_requests_total counts each answer under the status it went out with: a URL over the limit (refused before routing) 414, not 200", async () => {
    const long = await fetch(`${rig.gw.url}/v1/models?q=${"x".repeat(9000)}`, { headers: { authorization: `Bearer ${rig.admin.key}` } });
    expect(long.status).toBe(414);
    expect((await call(`${rig.gw.url}/v1/models`, rig.admin.key)).status).toBe(200);
    const http = family(await scrape(), "svc_http_requests_total", "COUNTER", ["route", "method", "status"]);
    expect(total(http, { route: "unmatched", method: "GET", status: "414" })).toBe(1);
    expect(total(http, { route: "/v1/models", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(series(http, { route: "unmatched", method: "GET", status: "200" })).toEqual([]);
  });

  test("svc_budget_remaining_usd: one series per budget calls reserved on, equal to what /api/budgets says is left; gone once the budget is", async () => {
    const created = await call(`${rig.gw.url}/api/budgets`, rig.admin.key, { body: { name: "metered", limit_usd: 3, period: "monthly" } });
    expect(created.status).toBe(201);
    const budget = (await created.json()) as { id: string };
    expect((await ask({ model: "gpt-4o-mini", messages: prompt("Within budget, please."), svc_options: { ...OFF, budget_id: budget.id } })).status).toBe(200);
    const view = (await (await call(`${rig.gw.url}/api/budgets/${budget.id}`, rig.admin.key)).json()) as { remaining_usd: number };
    expect(view.remaining_usd).toBeLessThan(3);
    const remaining = family(await scrape(), "svc_budget_remaining_usd", "GAUGE", ["budget"]);
    expect(series(remaining, { budget: budget.id }).map((s) => Number(s.value))).toEqual([view.remaining_usd]);
    expect((await call(`${rig.gw.url}/api/budgets/${budget.id}`, rig.admin.key, { method: "DELETE" })).status).toBe(200);
    expect((await scrape()).get("svc_budget_remaining_usd")?.metrics ?? []).toEqual([]);
  });
});
