import { createParser } from "eventsource-parser";
import { newId } from "./ids";
import { outputItems, responseObject } from "./response";

type Json = Record<string, any>;
const encoder = new TextEncoder();

/**
 * The pipeline's Chat Completions stream (SSE bytes) re-told as the Responses API's typed events:
 * response.created and .in_progress; per output item .output_item.added, then for text
 * .content_part.added, .output_text.delta..., .output_text.done, .content_part.done, for a function call
 * .function_call_arguments.delta... and .done; .output_item.done; and response.completed (or
 * .incomplete) with the whole response, usage and svc_meta. An error chunk becomes `error` and ends it.
 */
export function toResponseEvents(
  chat: ReadableStream<Uint8Array> | Blob,
  id: string,
  echo: Json,
  /** Called with the answer as a chat message and the final response object; the last event waits for it. */
  onDone: (message: Json, response: Json) => Promise<void>,
): ReadableStream<Uint8Array> {
  const source = chat instanceof Blob ? chat.stream() : chat;
  let seq = 0;
  const frame = (type: string, data: Json) => encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  let model = "";
  let text = "";
  let refusal = "";
  let textItem: { id: string; index: number } | undefined;
  let finish: string | null = null;
  let usage: Json | undefined;
  let meta: Json | undefined;
  let failed = false;
  let saving: Promise<void> | undefined;
  const calls: { id: string; call_id: string; name: string; arguments: string; index: number }[] = [];
  let nextIndex = 0;
  const pending: Uint8Array[] = [];

  const openText = () => {
    if (textItem) return;
    textItem = { id: newId("msg"), index: nextIndex++ };
    pending.push(
      frame("response.output_item.added", {
        output_index: textItem.index,
        item: { type: "message", id: textItem.id, status: "in_progress", role: "assistant", content: [] },
      }),
    );
    pending.push(
      frame("response.content_part.added", {
        item_id: textItem.id,
        output_index: textItem.index,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      }),
    );
  };

  const onChunk = (c: Json) => {
    if (c.error) {
      failed = true;
      pending.push(frame("error", { code: c.error.code ?? null, message: c.error.message, param: c.error.param ?? null }));
      return;
    }
    model = c.model ?? model;
    if (c.usage) usage = c.usage;
    if (c.svc_meta) meta = c.svc_meta;
    const choice = (c.choices ?? []).find((ch: Json) => (ch.index ?? 0) === 0);
    if (!choice) return;
    const d = choice.delta ?? {};
    if (typeof d.content === "string" && d.content !== "") {
      openText();
      text += d.content;
      pending.push(frame("response.output_text.delta", { item_id: textItem!.id, output_index: textItem!.index, content_index: 0, delta: d.content }));
    }
    if (typeof d.refusal === "string" && d.refusal !== "") refusal += d.refusal;
    for (const t of d.tool_calls ?? []) {
      let call = calls[t.index ?? 0];
      if (!call) {
        call = calls[t.index ?? 0] = { id: newId("fc"), call_id: t.id ?? "", name: t.function?.name ?? "", arguments: "", index: nextIndex++ };
        pending.push(
          frame("response.output_item.added", {
            output_index: call.index,
            item: { type: "function_call", id: call.id, call_id: call.call_id, name: call.name, arguments: "", status: "in_progress" },
          }),
        );
      }
      const part = t.function?.arguments ?? "";
      if (part) {
        call.arguments += part;
        pending.push(frame("response.function_call_arguments.delta", { item_id: call.id, output_index: call.index, delta: part }));
      }
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  };

  const finishAll = () => {
    const output: Json[] = [];
    if (textItem) {
      const part = { type: "output_text", text, annotations: [] };
      pending.push(frame("response.output_text.done", { item_id: textItem.id, output_index: textItem.index, content_index: 0, text }));
      pending.push(frame("response.content_part.done", { item_id: textItem.id, output_index: textItem.index, content_index: 0, part }));
      const item = {
        type: "message",
        id: textItem.id,
        status: "completed",
        role: "assistant",
        content: [part, ...(refusal ? [{ type: "refusal", refusal }] : [])],
      };
      pending.push(frame("response.output_item.done", { output_index: textItem.index, item }));
      output[textItem.index] = item;
    } else if (refusal) {
      const [item] = outputItems({ refusal });
      output[nextIndex] = item!;
      pending.push(
        frame("response.output_item.added", { output_index: nextIndex, item }),
        frame("response.output_item.done", { output_index: nextIndex, item }),
      );
      nextIndex++;
    }
    for (const call of calls) {
      pending.push(frame("response.function_call_arguments.done", { item_id: call.id, output_index: call.index, arguments: call.arguments }));
      const item = { type: "function_call", id: call.id, call_id: call.call_id, name: call.name, arguments: call.arguments, status: "completed" };
      pending.push(frame("response.output_item.done", { output_index: call.index, item }));
      output[call.index] = item;
    }
    const response = responseObject(id, model, output.filter(Boolean), finish, usage, echo, { svc_meta: meta });
    pending.push(frame(response.status === "completed" ? "response.completed" : "response.incomplete", { response }));
    saving = onDone(
      {
        role: "assistant",
        content: text || null,
        ...(refusal && { refusal }),
        ...(calls.length > 0 && { tool_calls: calls.map((c) => ({ id: c.call_id, type: "function", function: { name: c.name, arguments: c.arguments } })) }),
      },
      response,
    );
  };

  const parser = createParser({
    onEvent: (e) => {
      if (e.data === "[DONE]") return;
      onChunk(JSON.parse(e.data) as Json);
    },
  });
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        const initial = responseObject(id, "", [], null, undefined, echo);
        controller.enqueue(frame("response.created", { response: { ...initial, status: "in_progress" } }));
        controller.enqueue(frame("response.in_progress", { response: { ...initial, status: "in_progress" } }));
        return;
      }
      for (;;) {
        if (pending.length > 0) {
          for (const f of pending.splice(0)) controller.enqueue(f);
          return;
        }
        const { value, done } = await reader.read();
        if (done) {
          if (!failed) finishAll();
          if (saving) await saving;
          for (const f of pending.splice(0)) controller.enqueue(f);
          controller.close();
          return;
        }
        parser.feed(decoder.decode(value, { stream: true }));
      }
    },
    async cancel() {
      await reader.cancel();
    },
  });
}
