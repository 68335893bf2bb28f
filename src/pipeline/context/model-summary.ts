import type { Catalog, ModelInfo } from "../../catalog/catalog";
import type { ChatMessage } from "../../core/messages";
import type { ProviderRegistry } from "../../providers/registry";
import { MODEL_LINE_MARK, type SummaryTurn } from "./summary";

/**
 * Conversation summaries written by a model, when the operator names one (SVC_CONVERSATION_SUMMARY_MODEL:
 * a model id, or "cheapest" for the cheapest tier's cheapest servable model). Like the extractive
 * summary, each step appends one line for the turns it takes in and never rewrites an earlier line, so
 * the prefix stays byte-identical between steps; a failed or empty model answer falls back to the
 * extractive lines for that step.
 */
export const MODEL_SUMMARY_INSTRUCTIONS =
  "Summarize these conversation turns for the assistant that continues the conversation. Keep every name, number, date, decision and open question; drop greetings and small talk. Write plain sentences, at most 80 words, no preamble.";

/** Most tokens a summary step may answer with (80 words are about 110). */
export const MODEL_SUMMARY_MAX_TOKENS = 160;

/** The model named by the setting; undefined when off (""). Throws when the setting names no servable model. */
export function summaryModelOf(setting: string, catalog: Catalog, providers: ProviderRegistry): ModelInfo | undefined {
  if (setting === "") return undefined;
  if (setting === "cheapest") {
    const servable = catalog.routable.filter((m) => m.tier === "cheapest" && providers.providerFor(m) !== undefined);
    const cheapest = servable.sort((a, b) => a.input_usd_per_mtok + a.output_usd_per_mtok - (b.input_usd_per_mtok + b.output_usd_per_mtok))[0];
    if (!cheapest) throw new Error("SVC_CONVERSATION_SUMMARY_MODEL=cheapest: no configured provider serves a model of the cheapest tier");
    return cheapest;
  }
  const model = catalog.find(setting);
  if (!model || !providers.providerFor(model)) throw new Error(`SVC_CONVERSATION_SUMMARY_MODEL: no configured provider serves '${setting}'`);
  return model;
}

/** The request a summary step sends: the instructions, then the turns numbered as the conversation numbers them. */
export function summaryRequest(turns: readonly SummaryTurn[], firstTurn: number): ChatMessage[] {
  const text = turns.map((t, i) => `[${firstTurn + i}] ${t.role}: ${t.content}`).join("\n\n");
  return [
    { role: "system", content: MODEL_SUMMARY_INSTRUCTIONS },
    { role: "user", content: text },
  ];
}

/** The summary line a model's answer becomes: the turn range, then the answer on one line; undefined for an empty answer. */
export function modelSummaryLine(answer: string, firstTurn: number, lastTurn: number): string | undefined {
  const text = answer.replace(/\s+/g, " ").trim();
  return text === "" ? undefined : `[${firstTurn}-${lastTurn}] ${MODEL_LINE_MARK}${text}`;
}
