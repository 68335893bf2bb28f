import type { Choice, StreamEvent } from "../../providers/types";
import type { PlaceholderMap } from "./placeholders";
import { asText, inJsonString, restoreText, StreamRestorer } from "./restore";

/** The choices with placeholders restored in their text and tool-call arguments (new objects; the input is left masked). */
export function restoreChoices(choices: readonly Choice[], map: PlaceholderMap): Choice[] {
  if (map.size === 0) return choices as Choice[];
  return choices.map((c) => ({
    ...c,
    message: {
      ...c.message,
      content: c.message.content === null ? null : restoreText(c.message.content, map),
      ...(c.message.tool_calls && {
        tool_calls: c.message.tool_calls.map((t) => ({ ...t, function: { ...t.function, arguments: restoreText(t.function.arguments, map, inJsonString) } })),
      }),
    },
  }));
}

/**
 * The inverse of restoring, for what is kept after the client has its answer: every value the map
 * holds, written back as its placeholder (longest first, so a value inside another is not cut). A
 * streamed answer is reassembled from the restored events; this keeps it out of the cache.
 */
export function remaskText(text: string, map: PlaceholderMap): string {
  if (map.size === 0) return text;
  const entries = [...map.entries()].sort((a, b) => b.value.length - a.value.length);
  let out = text;
  for (const e of entries) if (out.includes(e.value)) out = out.split(e.value).join(`[${e.type}_${e.n}]`);
  return out;
}

interface ToolCallDelta {
  index: number;
  function?: { name?: string; arguments?: string };
  [k: string]: unknown;
}

/**
 * Restores a provider's stream events: each choice's text and each tool call's argument fragments
 * through their own StreamRestorer, so a placeholder split across events is held only until it is
 * whole. A choice's held tail goes out with its finish reason; anything still held at the end goes
 * out as a last delta.
 */
export function restoreEvents(map: PlaceholderMap): TransformStream<StreamEvent, StreamEvent> {
  const texts = new Map<number, StreamRestorer>();
  const args = new Map<string, StreamRestorer>();
  const textOf = (choice: number) => texts.get(choice) ?? texts.set(choice, new StreamRestorer(map, asText)).get(choice)!;
  const argsOf = (choice: number, tool: number) => {
    const key = `${choice}/${tool}`;
    return args.get(key) ?? args.set(key, new StreamRestorer(map, inJsonString)).get(key)!;
  };
  /** Flushes one choice's restorers: the held text and tool-call fragments. */
  const flushChoice = (choice: number): { content: string; tools: ToolCallDelta[] } => {
    const content = texts.get(choice)?.flush() ?? "";
    texts.delete(choice);
    const tools: ToolCallDelta[] = [];
    for (const [key, r] of args) {
      const [c, t] = key.split("/").map(Number);
      if (c !== choice) continue;
      const rest = r.flush();
      if (rest !== "") tools.push({ index: t!, function: { arguments: rest } });
      args.delete(key);
    }
    return { content, tools };
  };
  return new TransformStream({
    transform(ev, controller) {
      if (ev.kind !== "delta") return controller.enqueue(ev);
      const d = ev.delta;
      const delta: typeof d.delta = { ...d.delta };
      if (d.delta.content !== undefined) delta.content = textOf(d.index).push(d.delta.content);
      if (d.delta.tool_calls) {
        delta.tool_calls = (d.delta.tool_calls as ToolCallDelta[]).map((t) =>
          t.function?.arguments === undefined ? t : { ...t, function: { ...t.function, arguments: argsOf(d.index, t.index).push(t.function.arguments) } },
        );
      }
      if (d.finish_reason) {
        const rest = flushChoice(d.index);
        if (rest.content !== "") delta.content = (delta.content ?? "") + rest.content;
        if (rest.tools.length > 0) delta.tool_calls = [...(delta.tool_calls ?? []), ...rest.tools];
      }
      // A delta whose whole content is held back still goes out (empty) when it carries anything else.
      if (delta.content === "" && d.delta.content !== "" && !delta.role && !delta.tool_calls && !d.finish_reason) return;
      controller.enqueue({ kind: "delta", delta: { ...d, delta } });
    },
    flush(controller) {
      for (const choice of new Set([...texts.keys(), ...[...args.keys()].map((k) => Number(k.split("/")[0]))])) {
        const rest = flushChoice(choice);
        if (rest.content === "" && rest.tools.length === 0) continue;
        controller.enqueue({
          kind: "delta",
          delta: {
            index: choice,
            delta: { ...(rest.content !== "" && { content: rest.content }), ...(rest.tools.length > 0 && { tool_calls: rest.tools }) },
            finish_reason: null,
          },
        });
      }
    },
  });
}
