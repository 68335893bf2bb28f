import { describe, expect, test } from "bun:test";
import { maskText } from "../../src/pipeline/pii/mask";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import { couldBePlaceholder, inJsonString, restoreStream, restoreText, StreamRestorer } from "../../src/pipeline/pii/restore";

const map = new PlaceholderMap();
maskText("Mail jane.doe@example.com, or write to Zoë Ångström-Müller at 742 Evergreen Terrace", map);

async function collect(stream: ReadableStream<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

function streamOf<T>(parts: T[]): ReadableStream<T> {
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(p);
      c.close();
    },
  });
}

describe("streaming restore", () => {
  const answers = ["Sure, I emailed [EMAIL_1] and **[PERSON_1]** at [ address_1 ].", "Done: \\[EMAIL\\_1\\]", "[EMAIL_1]", "Ends with [EMAIL_1"];

  test.each(answers)("split into two at every character: %s", (answer) => {
    const whole = restoreText(answer, map);
    for (let cut = 0; cut <= answer.length; cut++) {
      const r = new StreamRestorer(map);
      expect(r.push(answer.slice(0, cut)) + r.push(answer.slice(cut)) + r.flush()).toBe(whole);
    }
  });

  test("split into three at every pair of characters", () => {
    const answer = "Hi [PERSON_1], mail [EMAIL_1]!";
    const whole = restoreText(answer, map);
    for (let a = 0; a <= answer.length; a++) {
      for (let b = a; b <= answer.length; b++) {
        const r = new StreamRestorer(map);
        expect(r.push(answer.slice(0, a)) + r.push(answer.slice(a, b)) + r.push(answer.slice(b)) + r.flush()).toBe(whole);
      }
    }
  });

  test("one character at a time", () => {
    const answer = "Write to [PERSON_1] ([email_1]) at [ADDRESS_1].";
    const r = new StreamRestorer(map);
    let out = "";
    for (const ch of answer) out += r.push(ch);
    expect(out + r.flush()).toBe(restoreText(answer, map));
    expect(out + "").toContain("Zoë Ångström-Müller");
  });

  test("split at every UTF-8 byte through a TextDecoderStream", async () => {
    // The restored value and the text around it have multi-byte characters; cuts fall inside them.
    const answer = "Grüße an [PERSON_1] — schreib an [EMAIL_1] ✓";
    const bytes = new TextEncoder().encode(answer);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const chunks = await collect(
        streamOf([bytes.slice(0, cut), bytes.slice(cut)])
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(restoreStream(map)),
      );
      expect(chunks.join("")).toBe("Grüße an Zoë Ångström-Müller — schreib an jane.doe@example.com ✓");
    }
  });

  test("nothing else waits: text that cannot start a placeholder goes out with its own delta", () => {
    const r = new StreamRestorer(map);
    expect(r.push("Hello, ")).toBe("Hello, ");
    expect(r.push("the array a[i] ")).toBe("the array a[i] ");
    expect(r.push("and [1] or [the")).toBe("and [1] or [the");
    // A possible start is held only until it is ruled out.
    expect(r.push("Contact [EM")).toBe("Contact ");
    expect(r.push("BER]")).toBe("[EMBER]");
    expect(r.push(" C:\\")).toBe(" C:");
    expect(r.push("path")).toBe("\\path");
    expect(r.flush()).toBe("");
  });

  test("an unfinished placeholder at the end of the stream is flushed as written", () => {
    const r = new StreamRestorer(map);
    expect(r.push("cut off [EMAIL_")).toBe("cut off ");
    expect(r.flush()).toBe("[EMAIL_");
  });

  test("the stream sends no empty chunk while it holds a tail, and the held rest at its end", async () => {
    expect(await collect(streamOf(["[EM", "AIL", "_1] and [PER"]).pipeThrough(restoreStream(map)))).toEqual(["jane.doe@example.com and ", "[PER"]);
    expect(await collect(streamOf(["[EMAIL_1]"]).pipeThrough(restoreStream(map)))).toEqual(["jane.doe@example.com"]);
    expect(await collect(streamOf(["plain", "[", ""]).pipeThrough(restoreStream(map)))).toEqual(["plain", "["]);
  });

  test("what could still grow into a placeholder, in any spelling a model writes it", () => {
    const could = [
      "",
      "\\",
      "[",
      "\\[",
      "[ ",
      "[**",
      "[_",
      "[EM",
      "[email",
      "[EMAIL",
      "[EMAIL_",
      "[EMAIL ",
      "[EMAIL-",
      "[EMAIL\\_",
      "[EMAIL_1",
      "[EMAIL_12",
      "[EMAIL_1 ",
      "[EMAIL_1**",
      "[ **Email 1",
      "[PERSON_3_",
    ];
    const cannot = ["x", "\\x", "[the", "[1", "[EMAILS", "[EMAILX_1", "[EMAIL_x", "[EMAIL_1]", "[EMAIL_1 x", "[EM1", "[ 1"];
    for (const s of could) expect({ s, could: couldBePlaceholder(s) }).toEqual({ s, could: true });
    for (const s of cannot) expect({ s, could: couldBePlaceholder(s) }).toEqual({ s, could: false });
  });

  test("tool-call argument deltas are restored JSON-escaped", () => {
    const quoted = PlaceholderMap.from([{ type: "PERSON", n: 1, value: 'Ann "Q" Lee' }]);
    const args = '{"to":"[PERSON_1]","n":1}';
    for (let cut = 0; cut <= args.length; cut++) {
      const r = new StreamRestorer(quoted, inJsonString);
      expect(JSON.parse(r.push(args.slice(0, cut)) + r.push(args.slice(cut)) + r.flush())).toEqual({ to: 'Ann "Q" Lee', n: 1 });
    }
  });
});
