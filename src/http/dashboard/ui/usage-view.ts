import uPlot from "uplot";
import { api, type KeyRecord } from "./api";
import { h, int, pct, usd } from "./dom";

interface Day {
  day: string;
  calls: number;
  errors: number;
  original_tokens: number;
  sent_tokens: number;
  cached_tokens: number;
  cost_original_usd: number;
  cost_actual_usd: number;
  saved_usd: number;
  cache_hits: number;
}
interface Usage {
  totals: Omit<Day, "day"> & { cache_hit_rate_calls: number; cache_hit_rate_tokens: number };
  days: Day[];
  models: { model: string; calls: number; cost_actual_usd: number }[];
  overhead_ms: { p50: number | null; p99: number | null };
}

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
        h("tbody", {}, ...days.map((d) => h("tr", {}, h("td", {}, d.day), ...series.map((s) => h("td", { class: "num" }, fmt(s.value(d))))))),
      ),
    ),
  );
  const xs = days.map((d) => Date.parse(d.day + "T00:00:00Z") / 1000);
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

/** Savings and usage over time for the signed-in key's app, filtered by key, model and time range. */
export async function usageView(root: HTMLElement, keys: KeyRecord[]): Promise<void> {
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
  const status = h("p", { role: "status", "aria-live": "polite", class: "muted" });
  const body = h("div", { id: "usage-body" });
  const form = h(
    "form",
    { class: "row card", "aria-label": "Filters" },
    h("div", {}, h("label", { for: "f-from" }, "From"), from),
    h("div", {}, h("label", { for: "f-to" }, "To"), to),
    h("div", {}, h("label", { for: "f-key" }, "Key"), key),
    h("div", {}, h("label", { for: "f-model" }, "Model"), model),
    h("button", { class: "primary", type: "submit" }, "Apply"),
    h("button", { class: "plain", type: "button", id: "refresh", onclick: () => load() }, "Refresh"),
  );

  const load = async () => {
    const q = new URLSearchParams({ from: from.value + "T00:00:00Z", to: new Date(Date.parse(to.value + "T00:00:00Z") + DAY_MS).toISOString() });
    if (key.value) q.set("key_id", key.value);
    if (model.value) q.set("model", model.value);
    status.textContent = "Loading…";
    try {
      const u = await api<Usage>("GET", "/api/dashboard/usage?" + q);
      render(u);
      status.textContent = `Updated ${new Date().toISOString().slice(11, 19)} UTC.`;
    } catch (e) {
      status.textContent = (e as Error).message;
    }
  };

  // Every day of the range gets a point, zero when nothing was called, so a quiet day reads as one.
  const everyDay = (u: Usage): Day[] => {
    const have = new Map(u.days.map((d) => [d.day, d]));
    const out: Day[] = [];
    for (let t = Date.parse(from.value + "T00:00:00Z"); t <= Date.parse(to.value + "T00:00:00Z"); t += DAY_MS) {
      const day = isoDay(t);
      out.push(
        have.get(day) ?? {
          day,
          calls: 0,
          errors: 0,
          original_tokens: 0,
          sent_tokens: 0,
          cached_tokens: 0,
          cost_original_usd: 0,
          cost_actual_usd: 0,
          saved_usd: 0,
          cache_hits: 0,
        },
      );
    }
    return out;
  };

  const render = (u: Usage) => {
    const days = everyDay(u);
    // The model list grows with what the unfiltered range has seen; a chosen model stays listed.
    const known = new Set([...model.options].map((o) => o.value));
    for (const m of u.models) if (m.model && !known.has(m.model)) model.append(h("option", { value: m.model }, m.model));
    const t = u.totals;
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
      card("Cache hit rate", `${pct(t.cache_hit_rate_calls)} of calls`, `${pct(t.cache_hit_rate_tokens)} of tokens`),
      card("Overhead p50 / p99", t.calls && u.overhead_ms.p50 !== null ? `${u.overhead_ms.p50} / ${u.overhead_ms.p99} ms` : "—"),
    );
    const models = h(
      "table",
      { id: "model-mix", "aria-label": "Model mix" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Model"),
          h("th", { scope: "col", class: "num" }, "Calls"),
          h("th", { scope: "col", class: "num" }, "Share"),
          h("th", { scope: "col", class: "num" }, "Cost"),
        ),
      ),
      h(
        "tbody",
        {},
        ...u.models.map((m) =>
          h(
            "tr",
            {},
            h("td", {}, m.model || "(none: refused before routing)"),
            h("td", { class: "num" }, int(m.calls)),
            h("td", { class: "num" }, pct(t.calls ? m.calls / t.calls : 0)),
            h("td", { class: "num" }, usd(m.cost_actual_usd)),
          ),
        ),
      ),
    );
    body.replaceChildren(
      cards,
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
