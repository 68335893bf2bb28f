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
});
