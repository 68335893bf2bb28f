import type { ChatMessage } from "../../core/messages";
import type { PiiSpan } from "../optimize-types";
import { ALL_TYPES, detectPii } from "./detect";
import type { PlaceholderMap } from "./placeholders";
import type { PiiType } from "./types";

export interface MaskResult {
  /** The messages with every detected value replaced by its placeholder. */
  messages: ChatMessage[];
  /** What was found: type, message index, and offsets in the original content. */
  found: PiiSpan[];
  /** Whether any value (in content or tool-call arguments) was replaced. */
  masked: boolean;
}

/** Replaces the detected values of `text` with their placeholders from `map`. */
export function maskText(
  text: string,
  map: PlaceholderMap,
  enabled: ReadonlySet<PiiType> = ALL_TYPES,
  onFound?: (type: PiiType, start: number, end: number) => void,
): string {
  const found = detectPii(text, enabled);
  if (found.length === 0) return text;
  let out = "";
  let at = 0;
  for (const d of found) {
    out += text.slice(at, d.start) + map.placeholderFor(d.type, text.slice(d.start, d.end));
    at = d.end;
    onFound?.(d.type, d.start, d.end);
  }
  return out + text.slice(at);
}

/**
 * Tool-call arguments are JSON: each string in them is masked on its own (a span never runs across a
 * quote), and the placeholders need no escaping. Arguments that are not JSON are masked as text.
 */
export function maskJsonText(json: string, map: PlaceholderMap, enabled: ReadonlySet<PiiType> = ALL_TYPES): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return maskText(json, map, enabled);
  }
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const m = maskText(v, map, enabled);
      if (m !== v) changed = true;
      return m;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const masked = walk(parsed);
  return changed ? JSON.stringify(masked) : json;
}

/**
 * Masks every message's content and tool-call arguments, in message order, so numbering follows
 * first appearance and a conversation's earlier turns mask the same way every time.
 */
export function maskMessages(messages: readonly ChatMessage[], map: PlaceholderMap, enabled: ReadonlySet<PiiType> = ALL_TYPES): MaskResult {
  const found: PiiSpan[] = [];
  let masked = false;
  const out = messages.map((m, index) => {
    const content = maskText(m.content, map, enabled, (type, start, end) => found.push({ type, message: index, start, end }));
    if (content !== m.content) masked = true;
    if (!m.tool_calls) return content === m.content ? m : { ...m, content };
    const toolCalls = m.tool_calls.map((c) => {
      const args = maskJsonText(c.function.arguments, map, enabled);
      if (args === c.function.arguments) return c;
      masked = true;
      return { ...c, function: { ...c.function, arguments: args } };
    });
    return { ...m, content, tool_calls: toolCalls };
  });
  return { messages: out, found, masked };
}
