import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "../../src/core/messages";
import { detectPii } from "../../src/pipeline/pii/detect";
import { maskMessages, maskText } from "../../src/pipeline/pii/mask";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import { inJsonString, restoreText } from "../../src/pipeline/pii/restore";
import type { PiiType } from "../../src/pipeline/pii/types";

/** One value of every type, in a sentence the detectors read it from. */
const SAMPLES: [PiiType, string, string][] = [
  ["EMAIL", "jane.doe@example.com", "Mail jane.doe@example.com today."],
  ["PHONE", "+44 20 7946 0958", "Ring +44 20 7946 0958 now."],
  ["CARD", "4111 1111 1111 1111", "Charge 4111 1111 1111 1111 please."],
  ["IBAN", "GB82 WEST 1234 5698 7654 32", "Send it to GB82 WEST 1234 5698 7654 32 by Monday."],
  ["SSN", "466-16-7762", "Her SSN is 466-16-7762."],
  ["IP", "203.0.113.7", "Blocked 203.0.113.7 at noon."],
  ["URL_CREDENTIALS", "bob:s3cret", "Clone https://bob:s3cret@git.example.com/x.git first."],
  ["SECRET", "AKIAIOSFODNN7EXAMPLE", "The key AKIAIOSFODNN7EXAMPLE leaked."],
  ["PERSON", "Margarethe Vandersloot", "Yesterday Margarethe Vandersloot sent the report."],
  ["ADDRESS", "742 Evergreen Terrace", "Ship it to 742 Evergreen Terrace before noon."],
];

describe("masking", () => {
  test.each(SAMPLES)("%s round trip", (type, value, text) => {
    const map = new PlaceholderMap();
    const masked = maskText(text, map);
    expect(masked).not.toContain(value);
    expect(masked).toContain(`[${type}_1]`);
    expect(restoreText(masked, map)).toBe(text);
  });

  test("the same value gets the same placeholder, another value the next number", () => {
    const map = new PlaceholderMap();
    const masked = maskText("a@x.io wrote to b@y.io, then a@x.io again", map);
    expect(masked).toBe("[EMAIL_1] wrote to [EMAIL_2], then [EMAIL_1] again");
  });

  test("deterministic: a conversation's earlier turns mask byte for byte the same every turn", () => {
    const turn1: ChatMessage[] = [{ role: "user", content: "I am Margarethe Vandersloot, mail me at m.v@example.com" }];
    const first = maskMessages(turn1, new PlaceholderMap());
    const turn2: ChatMessage[] = [
      ...turn1,
      { role: "assistant", content: "Sure, m.v@example.com noted." },
      { role: "user", content: "Also cc k.l@example.com" },
    ];
    const second = maskMessages(turn2, new PlaceholderMap());
    expect(second.messages[0]!.content).toBe(first.messages[0]!.content);
    expect(second.messages[1]!.content).toBe("Sure, [EMAIL_1] noted.");
    expect(second.messages[2]!.content).toBe("Also cc [EMAIL_2]");
  });

  test("what was found: type, message index and offsets in the original content", () => {
    const r = maskMessages(
      [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Mail jane.doe@example.com today." },
      ],
      new PlaceholderMap(),
    );
    expect(r.masked).toBe(true);
    expect(r.found).toEqual([{ type: "EMAIL", message: 1, start: 5, end: 25 }]);
  });

  test("types switched off are left alone", () => {
    const r = maskMessages(
      [{ role: "user", content: "Mail jane.doe@example.com or ring +44 20 7946 0958." }],
      new PlaceholderMap(),
      new Set<PiiType>(["PHONE"]),
    );
    expect(r.messages[0]!.content).toBe("Mail jane.doe@example.com or ring [PHONE_1].");
  });

  test("tool-call arguments are masked string by string and stay valid JSON", () => {
    const args = JSON.stringify({ to: "jane.doe@example.com", body: "Call +44 20 7946 0958", n: 3 });
    const r = maskMessages(
      [{ role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "send", arguments: args } }] }],
      new PlaceholderMap(),
    );
    const masked = r.messages[0]!.tool_calls![0]!.function.arguments;
    expect(JSON.parse(masked)).toEqual({ to: "[EMAIL_1]", body: "Call [PHONE_1]", n: 3 });
    expect(r.masked).toBe(true);
  });

  test("the map never shows its values when serialised by accident", () => {
    const map = new PlaceholderMap();
    maskText("Mail jane.doe@example.com", map);
    expect(JSON.stringify({ map })).not.toContain("jane.doe");
    expect(String(JSON.stringify(map))).not.toContain("example.com");
  });
});

describe("distractors that must not be masked", () => {
  test.each([
    "Order #48213377 shipped; tracking 1Z999AA10123456784.",
    "Upgrade from version 1.2.3 to 10.15.7 or v2.0.0.1.",
    "The meeting is on 2024-01-15 at 14:30, or 15.01.2024, or 01/15/2024.",
    "It costs $1,299.99 or €49.50, about 1 299 SEK.",
    "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, commit 3f2a9c1",
    "Card-like but Luhn-invalid: 4111 1111 1111 1112 and 1234567812345678.",
    "Ranges: 2000-3000 tokens, 1990-2020, pages 12-18, ratio 3.14159265.",
    "Set the subnet to 10.0.0.0/16 and listen on 0.0.0.0:8080.",
  ])("%s", (text) => {
    expect(detectPii(text).map((d) => `${d.type}:${text.slice(d.start, d.end)}`)).toEqual([]);
  });
});

describe("restoring what the model wrote", () => {
  const map = new PlaceholderMap();
  maskText("Mail jane.doe@example.com or call +44 20 7946 0958", map);

  test.each([
    ["[EMAIL_1]", "jane.doe@example.com"],
    ["[email_1]", "jane.doe@example.com"],
    ["[ EMAIL_1 ]", "jane.doe@example.com"],
    ["[Email 1]", "jane.doe@example.com"],
    ["**[EMAIL_1]**", "**jane.doe@example.com**"],
    ["[**EMAIL_1**]", "jane.doe@example.com"],
    ["\\[EMAIL\\_1\\]", "jane.doe@example.com"],
    ["`[EMAIL_1]`", "`jane.doe@example.com`"],
    ["[PHONE-1]", "+44 20 7946 0958"],
  ])("%s", (written, restored) => {
    expect(restoreText(`Reply to ${written}.`, map)).toBe(`Reply to ${restored}.`);
  });

  test("a placeholder the model invented is left as written", () => {
    expect(restoreText("See [EMAIL_7], [PERSON_1], [FOO_1] and [1].", map)).toBe("See [EMAIL_7], [PERSON_1], [FOO_1] and [1].");
  });

  test("inside JSON strings the value is escaped", () => {
    const m = new PlaceholderMap();
    maskText("Ship to 742 Evergreen Terrace before noon.", m);
    const tricky = PlaceholderMap.from([{ type: "PERSON", n: 1, value: 'Ann "Q" O\'Neil' }]);
    const args = restoreText('{"name":"[PERSON_1]"}', tricky, inJsonString);
    expect(JSON.parse(args)).toEqual({ name: 'Ann "Q" O\'Neil' });
  });
});
