import { type AgentRun, api, type Conversation, usage } from "./api";
import { h, int, table, usd } from "./dom";

const DAY_MS = 86_400_000;

const facts = (id: string, label: string, pairs: [string, string][]) =>
  h("dl", { class: "facts card", id, "aria-label": label }, ...pairs.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));

/**
 * Agent runs (those with calls in the last 30 days, from /api/usage by agent run, each opened with
 * /api/agent-runs/{id}) and a conversation looked up by id (/api/conversations/{id}: the API lists no
 * conversations, so the page asks for one).
 */
export async function runsView(root: HTMLElement): Promise<void> {
  const recent = await usage(
    new URLSearchParams({ group_by: "agent_run", from: new Date((Math.floor(Date.now() / DAY_MS) - 29) * DAY_MS).toISOString() }),
    false,
  );
  const runs = recent.rows.filter((r) => r.group !== null);
  const detail = h("div", { id: "run-detail", "aria-live": "polite" });
  const open = async (id: string) => {
    try {
      const r = await api<AgentRun>("GET", `/api/agent-runs/${encodeURIComponent(id)}`);
      detail.replaceChildren(
        h("h3", {}, "Run ", h("code", {}, r.id)),
        facts("run-facts", `Agent run ${r.id}`, [
          ["Status", r.trip_reason ? `${r.status} (${r.trip_reason})` : r.status],
          ["Calls", int(r.calls)],
          ["Tokens in / out", `${int(r.prompt_tokens)} / ${int(r.completion_tokens)}`],
          ["Cost", usd(r.cost_usd)],
          [
            "Limits",
            `cost ${r.limits.max_cost_usd === null ? "none" : usd(r.limits.max_cost_usd)}, calls ${r.limits.max_calls ?? "none"}, repeats ${r.limits.max_repeats}`,
          ],
        ]),
      );
    } catch (e) {
      detail.replaceChildren(h("p", { class: "error", role: "alert" }, (e as Error).message));
    }
  };
  const list = runs.length
    ? table(
        { id: "runs", "aria-label": "Agent runs" },
        [
          { label: "Run", cell: (r) => h("button", { class: "plain", type: "button", onclick: () => open(r.group!) }, r.group!) },
          { label: "Calls", num: true, cell: (r) => int(r.calls) },
          { label: "Cost with svc", num: true, cell: (r) => usd(r.cost_actual_usd) },
          { label: "Saved", num: true, cell: (r) => usd(r.saved_usd) },
        ],
        runs,
      )
    : h("p", { class: "muted" }, "No agent run has made calls in the last 30 days (calls name one with svc_options.agent_run_id).");

  const convId = h("input", { id: "conversation-id", required: true, maxlength: "200", autocomplete: "off", spellcheck: "false" });
  const conv = h("div", { id: "conversation-detail", "aria-live": "polite" });
  const lookup = h(
    "form",
    { class: "row card", "aria-label": "Look up a conversation" },
    h("div", {}, h("label", { for: "conversation-id" }, "Conversation id"), convId),
    h("button", { class: "primary", type: "submit" }, "Show conversation"),
  );
  lookup.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const c = await api<Conversation>("GET", `/api/conversations/${encodeURIComponent(convId.value.trim())}`);
      conv.replaceChildren(
        facts("conversation-facts", `Conversation ${c.id}`, [
          ["Turns", int(c.turns)],
          ["Sent as they are", int(c.kept_turns)],
          ["In the summary", int(c.summarized_turns)],
          ["Prompt tokens saved", int(c.tokens_saved)],
        ]),
      );
      if (c.summary) conv.append(h("details", {}, h("summary", {}, "Summary"), h("p", {}, c.summary)));
    } catch (e) {
      conv.replaceChildren(h("p", { class: "error", role: "alert" }, (e as Error).message));
    }
  });

  root.replaceChildren(
    h("h1", {}, "Agent runs and conversations"),
    h("h2", {}, "Agent runs with calls in the last 30 days"),
    list,
    detail,
    h("h2", {}, "Conversations"),
    lookup,
    conv,
  );
}
