import type { EventSourceMessage } from "eventsource-parser";
import { eventJson } from "../shared/sse";
import type { StreamEvent, Usage } from "../types";
import { candidateOutput, toFinishReason, toUsage, type GeminiResponse } from "./response";

interface CandidateState {
  toolCalls: number;
  finished: boolean;
}

/**
 * Turns streamGenerateContent?alt=sse events (each a partial GenerateContentResponse) into OpenAI deltas.
 * Gemini has no end marker: the answer is complete once every candidate has a finishReason. Usage
 * metadata is cumulative, so only the last one counts.
 */
export class GeminiStreamMapper {
  private readonly candidates = new Map<number, CandidateState>();
  private usage: Usage | undefined;
  private blocked = false;

  get complete(): boolean {
    if (this.blocked) return true;
    return this.candidates.size > 0 && [...this.candidates.values()].every((c) => c.finished);
  }

  /** The usage to report once the stream is over. */
  get finalUsage(): Usage | undefined {
    return this.usage;
  }

  map(event: EventSourceMessage): StreamEvent[] {
    const chunk = eventJson<GeminiResponse>(event, "gemini");
    this.usage = toUsage(chunk.usageMetadata) ?? this.usage;
    if (!chunk.candidates?.length && chunk.promptFeedback?.blockReason) {
      this.blocked = true;
      return [{ kind: "delta", delta: { index: 0, delta: { role: "assistant" }, finish_reason: "content_filter" } }];
    }
    const out: StreamEvent[] = [];
    for (const [position, c] of (chunk.candidates ?? []).entries()) {
      const index = c.index ?? position;
      let state = this.candidates.get(index);
      const first = state === undefined;
      if (!state) this.candidates.set(index, (state = { toolCalls: 0, finished: false }));
      const { text, toolCalls } = candidateOutput(c, `call_${index}_${state.toolCalls}`);
      const delta: { role?: "assistant"; content?: string; tool_calls?: unknown[] } = {};
      if (first) delta.role = "assistant";
      if (text) delta.content = text;
      if (toolCalls.length > 0) delta.tool_calls = toolCalls.map((call, i) => ({ index: state.toolCalls + i, ...call }));
      state.toolCalls += toolCalls.length;
      const finish = c.finishReason ? toFinishReason(c.finishReason, state.toolCalls > 0) : null;
      if (finish) state.finished = true;
      if (first || text || toolCalls.length > 0 || finish) out.push({ kind: "delta", delta: { index, delta, finish_reason: finish } });
    }
    return out;
  }
}
