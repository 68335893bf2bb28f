import uPlot from "uplot";
import { usage, type Budget, type KeyRecord, type SavedBySource, type Usage, type UsageRow } from "./api";
import { h, int, pct, table, usd } from "./dom";

/** A day of the series: the usage row of that UTC day (group is its date). */
type Day = Omit<UsageRow, "group"> & { group: string };

/** The savings split, in the order the page shows it. */
export const SOURCES: { key: keyof SavedBySource; label: string; color: string }[] = [
  { key: "compression", label: "compression", color: "#6b21a8" },
  { key: "routing", label: "routing", color: "#1d4ed8" },
  { key: "cache", label: "semantic cache", color: "#c2410c" },
  { key: "prompt_cache", label: "provider prompt cache", color: "#047857" },
  { key: "conversation", label: "conversation", color: "#a16207" },
];

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A line chart of per-day series; the table beside it carries the same numbers for screen readers. */
function chart(
  title: string,
  id: string,
  days: Day[],
  series: { label: string; color: string; value: (d: Day) => number }[],
  fmt: (x: number) => string,
): HTMLElement {
  const holder = h("div", { role: "img", "aria-label": `${title}: chart; the same numbers are in the table below it` });
  const fig = h(
    "figure",
    { class: "card", id },
    h("figcaption", {}, title),
    holder,
    h(
      "details",
      {},
      h("summary", {}, "Show as table"),
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Day"), ...series.map((s) => h("th", { scope: "col", class: "num" }, s.label)))),
        h("tbody", {}, ...days.map((d) => h("tr", {}, h("td", {}, d.group), ...series.map((s) => h("td", { class: "num" }, fmt(s.value(d))))))),
      ),
    ),
  );
  const xs = days.map((d) => Date.parse(d.group + "T00:00:00Z") / 1000);
  const whole = fmt === int;
  const data = [xs, ...series.map((s) => days.map(s.value))] as uPlot.AlignedData;
  // uPlot measures its holder, so it is drawn once the figure is in the document.
  queueMicrotask(() => {
    new uPlot(
      {
        width: Math.max(300, holder.clientWidth || 480),
        height: 220,
        series: [
          {},
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: 2,
            points: { show: days.length < 40 },
            value: (_u: uPlot, v: number | null) => (v === null ? "—" : fmt(v)),
          })),
        ],
        axes: [
          {},
          {
            values: (_u: uPlot, vals: number[]) => vals.map(fmt),
            size: 90,
            ...(whole && { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 1e5, 1e6, 1e7, 1e8] }),
          },
        ],
        scales: { x: { time: true }, y: { range: (_u: uPlot, _min: number, max: number) => [0, max > 0 ? max * 1.1 : 1] } },
      },
      data,
      holder,
    );
  });
  return fig;
}

/** Savings and usage over time for the signed-in key's app, filtered by key, model, budget and time range. */
export async function usageView(root: HTMLElement, keys: KeyRecord[], budgets: Budget[]): Promise<void> {
  const now = Date.now();
  const from = h("input", { id: "f-from", type: "date", value: isoDay(now - 29 * DAY_MS) });
  const to = h("input", { id: "f-to", type: "date", value: isoDay(now) });
  const key = h(
    "select",
    { id: "f-key" },
    h("option", { value: "" }, "all keys"),
    ...keys.map((k) => h("option", { value: k.id }, `${k.name} (${k.prefix}…${k.last4})`)),
  );
  const model = h("select", { id: "f-model" }, h("option", { value: "" }, "all models"));
  const budget = h("select", { id: "f-budget" }, h("option", { value: "" }, "all budgets"), ...budgets.map((b) => h("option", { value: b.id }, b.name)));
  const status = h("p", { role: "status", "aria-live": "polite", class: "muted" });
  const body = h("div", { id: "usage-body" });
  const form = h(
    "form",
    { class: "row card", "aria-label": "Filters" },
    h("div", {}, h("label", { for: "f-from" }, "From"), from),
    h("div", {}, h("label", { for: "f-to" }, "To"), to),
    h("div", {}, h("label", { for: "f-key" }, "Key"), key),
    h("div", {}, h("label", { for: "f-model" }, "Model"), model),
    h("div", {}, h("label", { for: "f-budget" }, "Budget"), budget),
    h("button", { class: "primary", type: "submit" }, "Apply"),
    h("button", { class: "plain", type: "button", id: "refresh", onclick: () => load() }, "Refresh"),
  );

  const load = async () => {
    const q = new URLSearchParams({ from: from.value + "T00:00:00Z", to: new Date(Date.parse(to.value + "T00:00:00Z") + DAY_MS).toISOString() });
    if (key.value) q.set("key_id", key.value);
    if (model.value) q.set("model", model.value);
    if (budget.value) q.set("budget_id", budget.value);
    status.textContent = "Loading…";
    try {
      const [byDay, byModel] = await Promise.all([
        usage(new URLSearchParams([...q, ["group_by", "day"]])),
        usage(new URLSearchParams([...q, ["group_by", "model"]]), false),
      ]);
      render(byDay, byModel);
      status.textContent = `Updated ${new Date().toISOString().slice(11, 19)} UTC.`;
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };

  // Every day of the range gets a point, zero when nothing was called, so a quiet day reads as one.
  const everyDay = (u: Usage): Day[] => {
    const have = new Map(u.rows.map((d) => [d.group, d]));
    const zero = (group: string): Day => ({
      group,
      calls: 0,
      errors: 0,
      original_tokens: 0,
      sent_tokens: 0,
      cached_tokens: 0,
      cost_original_usd: 0,
      cost_actual_usd: 0,
      saved_usd: 0,
      saved_by_source: { compression: 0, routing: 0, cache: 0, prompt_cache: 0, conversation: 0 },
      cache_hits: 0,
      avg_latency_ms: 0,
    });
    const out: Day[] = [];
    for (let t = Date.parse(from.value + "T00:00:00Z"); t <= Date.parse(to.value + "T00:00:00Z"); t += DAY_MS) {
      const day = isoDay(t);
      out.push((have.get(day) as Day | undefined) ?? zero(day));
    }
    return out;
  };

  const render = (byDay: Usage, byModel: Usage) => {
    const days = everyDay(byDay);
    // The model list grows with what the unfiltered range has seen; a chosen model stays listed.
    const known = new Set([...model.options].map((o) => o.value));
    for (const m of byModel.rows) if (m.group && !known.has(m.group)) model.append(h("option", { value: m.group }, m.group));
    const t = byDay.totals!;
    const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
    const card = (label: string, value: string, note?: string) =>
      h("div", { class: "card" }, h("dt", {}, label), h("dd", {}, value, note ? h("small", {}, " " + note) : null));
    const cards = h(
      "dl",
      { class: "cards", id: "totals" },
      card("Calls", int(t.calls), t.errors ? `${int(t.errors)} failed` : undefined),
      card("Tokens before → after compression", `${int(t.original_tokens)} → ${int(t.sent_tokens)}`),
      card("Cost without svc", usd(t.cost_original_usd)),
      card("Cost with svc", usd(t.cost_actual_usd)),
      card("Saved", usd(t.saved_usd), t.cost_original_usd ? pct(t.saved_usd / t.cost_original_usd) : undefined),
      card("Cache hit rate", `${pct(ratio(t.cache_hits, t.calls))} of calls`, `${pct(ratio(t.cached_tokens, t.original_tokens))} of tokens`),
      card("Overhead p50 / p99", t.overhead_ms.p50 !== null ? `${t.overhead_ms.p50} / ${t.overhead_ms.p99} ms` : "—"),
    );
    const sources = table(
      { id: "savings-by-source", "aria-label": "Savings by source" },
      [
        { label: "Source", cell: (s) => s.label },
        { label: "Saved", num: true, cell: (s) => usd(t.saved_by_source[s.key]) },
        { label: "Share of saved", num: true, cell: (s) => pct(ratio(t.saved_by_source[s.key], t.saved_usd)) },
      ],
      SOURCES,
    );
    const models = table(
      { id: "model-mix", "aria-label": "Model mix" },
      [
        { label: "Model", cell: (m) => m.group || "(none: refused before routing)" },
        { label: "Calls", num: true, cell: (m) => int(m.calls) },
        { label: "Share", num: true, cell: (m) => pct(ratio(m.calls, t.calls)) },
        { label: "Cost", num: true, cell: (m) => usd(m.cost_actual_usd) },
      ],
      [...byModel.rows].sort((a, b) => b.calls - a.calls),
    );
    body.replaceChildren(
      cards,
      h("h2", {}, "Savings by source"),
      sources,
      h(
        "div",
        { class: "charts" },
        chart(
          "Cost per day (USD): without svc vs with svc",
          "chart-cost",
          days,
          [
            { label: "without svc", color: "#b91c1c", value: (d) => d.cost_original_usd },
            { label: "with svc", color: "#1d4ed8", value: (d) => d.cost_actual_usd },
          ],
          usd,
        ),
        chart(
          "Saved per day (USD) by source",
          "chart-sources",
          days,
          SOURCES.map((s) => ({ label: s.label, color: s.color, value: (d: Day) => d.saved_by_source[s.key] })),
          usd,
        ),
        chart(
          "Tokens per day: before vs after compression",
          "chart-tokens",
          days,
          [
            { label: "before", color: "#6b21a8", value: (d) => d.original_tokens },
            { label: "after", color: "#047857", value: (d) => d.sent_tokens },
          ],
          int,
        ),
        chart(
          "Calls and cache hits per day",
          "chart-calls",
          days,
          [
            { label: "calls", color: "#1f2937", value: (d) => d.calls },
            { label: "cache hits", color: "#c2410c", value: (d) => d.cache_hits },
          ],
          int,
        ),
      ),
      h("h2", {}, "Model mix"),
      models,
    );
  };

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    load();
  });
  root.replaceChildren(h("h1", {}, "Usage and savings"), form, status, body);
  await load();
}
