import type { StreamDelta } from "../../providers/types";
import type { CachedAnswer } from "./types";

/** About the size of the pieces providers stream, so a replayed answer looks like a live one to clients. */
const PIECE_CHARS = 64;

/** Splits text into pieces of about `size` characters, breaking after whitespace where it can. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start) end = space + 1;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/**
 * A cached answer as the deltas of a stream, in OpenAI's order per choice: the role, the content
 * pieces, the tool calls, then an empty delta with the finish reason. The caller frames them as SSE
 * and adds `svc_meta` to the last chunk.
 */
export function replayDeltas(answer: CachedAnswer, pieceChars = PIECE_CHARS): StreamDelta[] {
  const deltas: StreamDelta[] = [];
  for (const choice of answer.choices) {
    const index = choice.index;
    deltas.push({ index, delta: { role: "assistant" }, finish_reason: null });
    for (const content of pieces(choice.message.content ?? "", pieceChars)) deltas.push({ index, delta: { content }, finish_reason: null });
    const calls = choice.message.tool_calls;
    if (calls && calls.length > 0) deltas.push({ index, delta: { tool_calls: calls.map((call, i) => ({ index: i, ...call })) }, finish_reason: null });
    deltas.push({ index, delta: {}, finish_reason: choice.finish_reason });
  }
  return deltas;
}
