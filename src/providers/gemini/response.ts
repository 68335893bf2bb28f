import type { ToolCall } from "../../core/messages";
import { ProviderError, type FinishReason, type ProviderResponse, type Usage } from "../types";
import type { GeminiContent } from "./request";

export interface GeminiCandidate {
  index?: number;
  content?: Partial<GeminiContent>;
  finishReason?: string;
}

/** A generateContent answer, and also each event of a streamGenerateContent stream. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number; cachedContentTokenCount?: number };
}

const FILTERED = new Set(["SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"]);

/** Gemini says STOP also when it called a function; OpenAI clients expect tool_calls then. */
export function toFinishReason(reason: string, calledTools: boolean): FinishReason {
  if (reason === "MAX_TOKENS") return "length";
  if (FILTERED.has(reason)) return "content_filter";
  return calledTools ? "tool_calls" : "stop";
}

/** The answer text and function calls of one candidate (or one streamed piece of it). */
export function candidateOutput(c: GeminiCandidate, idPrefix: string): { text: string; toolCalls: ToolCall[] } {
  let text = "";
  const toolCalls: ToolCall[] = [];
  for (const part of c.content?.parts ?? []) {
    if (typeof part.text === "string" && !part.thought) text += part.text;
    if (part.functionCall) {
      // Gemini 1.5 gives calls no id; OpenAI clients need one to answer with a tool message.
      const id = part.functionCall.id ?? `${idPrefix}_${toolCalls.length}`;
      toolCalls.push({ id, type: "function", function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) } });
    }
  }
  return { text, toolCalls };
}

export function toUsage(u: GeminiResponse["usageMetadata"]): Usage | undefined {
  if (typeof u?.promptTokenCount !== "number") return undefined;
  // Reasoning tokens are billed as output, so they count as completion.
  const usage: Usage = { prompt_tokens: u.promptTokenCount, completion_tokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0) };
  // Cached content is counted inside promptTokenCount, as OpenAI counts its cached tokens.
  if (typeof u.cachedContentTokenCount === "number") usage.cached_tokens = u.cachedContentTokenCount;
  return usage;
}

export function fromGeminiResponse(body: GeminiResponse): ProviderResponse {
  if (!body || typeof body !== "object") throw new ProviderError("protocol", "gemini answered something that is not a response");
  const candidates = body.candidates ?? [];
  // A prompt blocked by safety settings gets no candidates at all, only promptFeedback.
  const choices: ProviderResponse["choices"] =
    candidates.length === 0 && body.promptFeedback?.blockReason
      ? [{ index: 0, message: { role: "assistant", content: "" }, finish_reason: "content_filter" }]
      : candidates.map((c, i) => {
          const index = c.index ?? i;
          const { text, toolCalls } = candidateOutput(c, `call_${index}`);
          const message: ProviderResponse["choices"][number]["message"] = { role: "assistant", content: text };
          if (toolCalls.length > 0) message.tool_calls = toolCalls;
          return { index, message, finish_reason: toFinishReason(c.finishReason ?? "STOP", toolCalls.length > 0) };
        });
  if (choices.length === 0) throw new ProviderError("protocol", "gemini answered without candidates");
  const response: ProviderResponse = { choices };
  const usage = toUsage(body.usageMetadata);
  if (usage) response.usage = usage;
  return response;
}
