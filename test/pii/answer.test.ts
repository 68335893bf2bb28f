import { describe, expect, test } from "bun:test";
import { remaskText, restoreChoices, restoreEvents } from "../../src/pipeline/pii/answer";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import type { Choice, StreamEvent } from "../../src/providers/types";

const map = PlaceholderMap.from([
  { type: "EMAIL", n: 1, value: "jane.doe@example.com" },
  { type: "PERSON", n: 1, value: 'Ann "Q" Lee' },
]);

async function run(events: StreamEvent[]): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  const src = new ReadableStream<StreamEvent>({
    start(c) {
      for (const e of events) c.enqueue(e);
      c.close();
    },
  });
  for await (const e of src.pipeThrough(restoreEvents(map))) out.push(e);
  return out;
}

const delta = (index: number, d: Record<string, unknown>, finish: "stop" | "tool_calls" | null = null): StreamEvent => ({
  kind: "delta",
  delta: { index, delta: d, finish_reason: finish },
});

describe("restoring an answer", () => {
  test("JSON choices: text and tool-call arguments, the input left masked", () => {
    const masked: Choice[] = [
      { index: 0, message: { role: "assistant", content: "Mailed **[EMAIL_1]**." }, finish_reason: "stop" },
      {
        index: 1,
        message: { role: "assistant", content: "", tool_calls: [{ id: "t", type: "function", function: { name: "send", arguments: '{"to":"[PERSON_1]"}' } }] },
        finish_reason: "tool_calls",
      },
    ];
    const restored = restoreChoices(masked, map);
    expect(restored[0]!.message.content).toBe("Mailed **jane.doe@example.com**.");
    expect(JSON.parse(restored[1]!.message.tool_calls![0]!.function.arguments)).toEqual({ to: 'Ann "Q" Lee' });
    expect(masked[0]!.message.content).toBe("Mailed **[EMAIL_1]**.");
  });

  test("stream events: text split at every character across two events, per choice", async () => {
    const text = "Write to [EMAIL_1] now";
    for (let cut = 0; cut <= text.length; cut++) {
      const out = await run([
        delta(0, { role: "assistant", content: "" }),
        delta(0, { content: text.slice(0, cut) }),
        delta(1, { content: "[email_1]" }),
        delta(0, { content: text.slice(cut) }),
        delta(0, {}, "stop"),
        delta(1, {}, "stop"),
      ]);
      const joined = (i: number) =>
        out
          .filter((e) => e.kind === "delta" && e.delta.index === i)
          .map((e) => (e.kind === "delta" ? (e.delta.delta.content ?? "") : ""))
          .join("");
      expect(joined(0)).toBe("Write to jane.doe@example.com now");
      expect(joined(1)).toBe("jane.doe@example.com");
      expect(out.filter((e) => e.kind === "delta" && e.delta.finish_reason === "stop")).toHaveLength(2);
    }
  });

  test("stream events: tool-call argument fragments split at every character, JSON-escaped", async () => {
    const args = '{"to":"[PERSON_1]","cc":"[EMAIL_1]"}';
    for (let cut = 0; cut <= args.length; cut++) {
      const out = await run([
        delta(0, { tool_calls: [{ index: 0, id: "t", type: "function", function: { name: "send", arguments: "" } }] }),
        delta(0, { tool_calls: [{ index: 0, function: { arguments: args.slice(0, cut) } }] }),
        delta(0, { tool_calls: [{ index: 0, function: { arguments: args.slice(cut) } }] }),
        delta(0, {}, "tool_calls"),
      ]);
      const joined = out
        .flatMap((e) => (e.kind === "delta" ? ((e.delta.delta.tool_calls ?? []) as { function?: { arguments?: string } }[]) : []))
        .map((t) => t.function?.arguments ?? "")
        .join("");
      expect(JSON.parse(joined)).toEqual({ to: 'Ann "Q" Lee', cc: "jane.doe@example.com" });
    }
  });

  test("usage events pass; an unfinished tail at the end goes out as a last delta", async () => {
    const out = await run([delta(0, { content: "cut [EMAIL_" }), { kind: "usage", usage: { prompt_tokens: 1, completion_tokens: 2 } }]);
    expect(out.map((e) => (e.kind === "delta" ? e.delta.delta.content : "usage"))).toEqual(["cut ", "usage", "[EMAIL_"]);
  });

  test("what is kept after the answer is masked again", () => {
    expect(remaskText('Sent to jane.doe@example.com and Ann "Q" Lee.', map)).toBe("Sent to [EMAIL_1] and [PERSON_1].");
  });

  test("masking again takes the longest value first, so a value inside another is not cut out of it", () => {
    const nested = PlaceholderMap.from([
      { type: "PERSON", n: 1, value: "Ann" },
      { type: "PERSON", n: 2, value: "Ann Lee" },
      { type: "ADDRESS", n: 1, value: "1 Ann Lee Road" },
    ]);
    expect(remaskText("Ann Lee of 1 Ann Lee Road met Ann.", nested)).toBe("[PERSON_2] of [ADDRESS_1] met [PERSON_1].");
  });

  test("a message without text (tool calls only) keeps content null", () => {
    const masked: Choice[] = [
      {
        index: 0,
        message: { role: "assistant", content: null, tool_calls: [{ id: "t", type: "function", function: { name: "send", arguments: '{"to":"[EMAIL_1]"}' } }] },
        finish_reason: "tool_calls",
      },
    ];
    const [c] = restoreChoices(masked, map);
    expect(c!.message.content).toBeNull();
    expect(c!.message.tool_calls![0]!.function.arguments).toBe('{"to":"jane.doe@example.com"}');
  });

  test("a tail held back when a choice finishes goes out in that choice's finish chunk, never after it", async () => {
    const out = await run([
      delta(0, { role: "assistant", content: "Write to [EMAIL_1" }),
      delta(1, { content: "Or [PERS" }),
      delta(0, {}, "stop"),
      delta(1, { content: "ON_1] then" }),
      delta(1, {}, "stop"),
    ]);
    expect(out).toEqual([
      delta(0, { role: "assistant", content: "Write to " }),
      delta(1, { content: "Or " }),
      delta(0, { content: "[EMAIL_1" }, "stop"),
      delta(1, { content: 'Ann "Q" Lee then' }),
      delta(1, {}, "stop"),
    ]);
  });

  test("tool-call fragments held back go out with their own choice's finish, one entry per tool call", async () => {
    const out = await run([
      delta(0, {
        tool_calls: [
          { index: 0, function: { arguments: '{"to":"[PERS' } },
          { index: 1, function: { arguments: '{"cc":"[EMAIL' } },
        ],
      }),
      delta(1, { tool_calls: [{ index: 0, function: { arguments: '{"x":"[EMA' } }] }),
      delta(0, {}, "tool_calls"),
      delta(1, { tool_calls: [{ index: 0, function: { arguments: 'IL_1]"}' } }] }),
      delta(1, {}, "tool_calls"),
    ]);
    expect(out).toEqual([
      delta(0, {
        tool_calls: [
          { index: 0, function: { arguments: '{"to":"' } },
          { index: 1, function: { arguments: '{"cc":"' } },
        ],
      }),
      delta(1, { tool_calls: [{ index: 0, function: { arguments: '{"x":"' } }] }),
      delta(
        0,
        {
          tool_calls: [
            { index: 0, function: { arguments: "[PERS" } },
            { index: 1, function: { arguments: "[EMAIL" } },
          ],
        },
        "tool_calls",
      ),
      delta(1, { tool_calls: [{ index: 0, function: { arguments: 'jane.doe@example.com"}' } }] }),
      delta(1, {}, "tool_calls"),
    ]);
  });

  test("a delta whose text is all held back is not sent, unless it carries a role, tool calls or a finish", async () => {
    const out = await run([
      delta(0, { role: "assistant", content: "[EM" }),
      delta(0, { content: "AIL" }),
      delta(0, { content: "_1] hi" }),
      delta(1, { content: "[EM", tool_calls: [{ index: 0, function: { name: "f" } }] }),
      delta(1, { content: "" }),
      delta(1, { content: "AIL_1]" }),
    ]);
    expect(out).toEqual([
      delta(0, { role: "assistant", content: "" }),
      delta(0, { content: "jane.doe@example.com hi" }),
      delta(1, { content: "", tool_calls: [{ index: 0, function: { name: "f" } }] }),
      delta(1, { content: "" }),
      delta(1, { content: "jane.doe@example.com" }),
    ]);
  });

  test("at the end of a stream without finish reasons, each choice's held text and fragments go out once, in a last delta of their own", async () => {
    const out = await run([
      delta(0, { content: "a [EMA" }),
      delta(1, { tool_calls: [{ index: 2, function: { arguments: '{"to":"[PER' } }] }),
      delta(2, { content: "done" }),
    ]);
    expect(out.slice(3)).toEqual([
      { kind: "delta", delta: { index: 0, delta: { content: "[EMA" }, finish_reason: null } },
      { kind: "delta", delta: { index: 1, delta: { tool_calls: [{ index: 2, function: { arguments: "[PER" } }] }, finish_reason: null } },
    ]);
  });
});
