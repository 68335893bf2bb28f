import { diffWords } from "diff";
import { h, usd } from "./dom";

interface PiiSpan {
  type: string;
  message: number;
  start: number;
  end: number;
}
interface Analysis {
  messages: { role: string; content: string }[];
  model: string;
  svc_meta: {
    original_tokens: number;
    compressed_tokens: number;
    compression_ratio: number;
    quality_score?: number;
    routing_reason: string;
    rules_applied: string[];
    pii_masked: boolean;
  };
  pii: PiiSpan[];
  estimated_costs: { prompt_original_usd: number; prompt_sent_usd: number; saved_usd: number };
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

// What each routing reason means, in the words a user of the page needs.
const REASONS: Record<string, string> = {
  explicit_model: "you named the model",
  faq_pattern: "a common question: the cheapest tier answers it",
  code_task: "a coding task",
  math_task: "a math task",
  reasoning_task: "a reasoning task: a stronger tier",
  creative_task: "a creative writing task",
  summarize_task: "a summary",
  extract_task: "an extraction",
  translate_task: "a translation",
  chat_default: "small talk: the cheapest tier",
  long_context: "a long prompt: a model with a larger context window",
  fallback: "the first choice was unavailable",
  route_disabled: "routing off: the configured default model",
};

/** The prompt as sent upstream, with what compression removed struck through and what it wrote underlined. */
function marked(original: string, sent: string): Node[] {
  return diffWords(original, sent).map((part) =>
    part.removed ? h("del", { title: "removed" }, part.value) : part.added ? h("ins", { title: "added" }, part.value) : document.createTextNode(part.value),
  );
}

async function run() {
  const status = $("status");
  status.textContent = "";
  const prompt = $<HTMLTextAreaElement>("prompt").value;
  const body = {
    model: $<HTMLInputElement>("route").checked ? "auto" : "gpt-4o-mini",
    messages: [{ role: "user", content: prompt }],
    svc_options: { max_aggressiveness: Number($<HTMLInputElement>("level").value), mask_pii: $<HTMLInputElement>("maskPii").checked },
  };
  const res = await fetch("/v1/playground", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) {
    status.replaceChildren(h("p", { class: "error", role: "alert" }, `${data.error.code}: ${data.error.message}`));
    return;
  }
  const a = data as Analysis;
  const sent = a.messages.map((m) => m.content).join("\n\n");
  $("out").replaceChildren(...marked(prompt, sent));
  const m = a.svc_meta;
  const rows: [string, string][] = [
    ["model", a.model],
    ["routing reason", `${m.routing_reason}${REASONS[m.routing_reason] ? ` (${REASONS[m.routing_reason]})` : ""}`],
    ["tokens", `${m.original_tokens} → ${m.compressed_tokens}`],
    ["removed", Math.round(m.compression_ratio * 100) + "%"],
    ["quality score", m.quality_score === undefined ? "—" : `${m.quality_score} / 100`],
    ["rules applied", m.rules_applied.join(", ") || "none"],
    ["prompt cost without svc", usd(a.estimated_costs.prompt_original_usd)],
    ["prompt cost with svc", usd(a.estimated_costs.prompt_sent_usd)],
    ["saved on the prompt", usd(a.estimated_costs.saved_usd)],
  ];
  $("meta").replaceChildren(h("tbody", {}, ...rows.map(([k, v]) => h("tr", {}, h("th", { scope: "row" }, k), h("td", {}, v)))));
  $("meta").hidden = false;
  const texts = body.messages.map((x) => x.content);
  $("pii").replaceChildren(
    h("h2", {}, "Personal data found"),
    a.pii.length === 0
      ? h("p", {}, "None.")
      : h(
          "ul",
          {},
          ...a.pii.map((p) =>
            h("li", {}, h("strong", {}, p.type), ` in message ${p.message + 1}: `, h("mark", {}, texts[p.message]?.slice(p.start, p.end) ?? "")),
          ),
        ),
    h(
      "p",
      { class: "muted" },
      body.svc_options.mask_pii
        ? "With svc_options.mask_pii these are replaced by placeholders before the prompt leaves the gateway."
        : "Personal data is looked for only with svc_options.mask_pii (the box above).",
    ),
  );
}

$<HTMLInputElement>("level").addEventListener("input", () => ($("levelValue").textContent = $<HTMLInputElement>("level").value));
$("run").addEventListener("click", () => run());
