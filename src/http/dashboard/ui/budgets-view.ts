import { api, usage, type Budget } from "./api";
import { h, int, pct, table, usd, when } from "./dom";

const DAY_MS = 86_400_000;

/** Budgets of the app: limit, spend, reserved and remaining in the current period (/api/budgets), and their calls over the last 30 days (/api/usage). */
export async function budgetsView(root: HTMLElement): Promise<void> {
  const [{ data }, recent] = await Promise.all([
    api<{ data: Budget[] }>("GET", "/api/budgets"),
    usage(new URLSearchParams({ group_by: "budget", from: new Date((Math.floor(Date.now() / DAY_MS) - 29) * DAY_MS).toISOString() }), false),
  ]);
  const calls = new Map(recent.rows.map((r) => [r.group, r]));
  const list = data.length
    ? table(
        { id: "budgets", "aria-label": "Budgets" },
        [
          { label: "Name", cell: (b) => b.name },
          { label: "Period", cell: (b) => b.period },
          { label: "Limit", num: true, cell: (b) => usd(b.limit_usd) },
          { label: "Spent", num: true, cell: (b) => usd(b.spent_usd) },
          { label: "Reserved", num: true, cell: (b) => usd(b.reserved_usd) },
          { label: "Remaining", num: true, cell: (b) => usd(b.remaining_usd) },
          {
            label: "Used",
            cell: (b) => {
              const used = b.limit_usd ? (b.spent_usd + b.reserved_usd) / b.limit_usd : 0;
              return h(
                "meter",
                { min: "0", max: "1", low: "0.75", high: "0.9", optimum: "0", value: String(Math.min(1, used)), "aria-label": `${b.name} used` },
                pct(used),
              );
            },
          },
          { label: "Resets", cell: (b) => (b.resets_at ? when(b.resets_at) : "never") },
          { label: "Calls, 30 days", num: true, cell: (b) => int(calls.get(b.id)?.calls ?? 0) },
          { label: "Saved, 30 days", num: true, cell: (b) => usd(calls.get(b.id)?.saved_usd ?? 0) },
        ],
        data,
      )
    : h("p", { class: "muted" }, "No budgets yet: an admin key creates them with POST /api/budgets.");
  root.replaceChildren(h("h1", {}, "Budgets"), h("p", { class: "muted" }, "Spend and reservations in each budget's current period."), list);
}
