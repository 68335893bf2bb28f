import { describe, expect, test } from "bun:test";
import { compressMessages } from "../../src/pipeline/compress";
import { mask, unmask } from "../../src/pipeline/compress/protect/mask";
import { protectedSpans } from "../../src/pipeline/compress/protect/spans";
import type { ChatMessage } from "../../src/core/messages";

/** Wordy padding that makes every rule, pruning included, run on the message at full strength. */
const PADDING = Array.from(
  { length: 6 },
  () => "I was wondering if you could basically help me write the report for the team, and the report is going to be read by the managers of the company.",
).join(" ");

/** Compresses `text` as old history at level 1.0 (the hardest any message is compressed) and returns it. */
function squeeze(text: string): string {
  const messages: ChatMessage[] = [
    { role: "user", content: `${PADDING}\n\n${text}\n\n${PADDING}` },
    { role: "assistant", content: "Understood." },
    { role: "user", content: "Go on." },
  ];
  const out = compressMessages(messages, { aggressiveness: 1, skipRules: [] });
  expect(out.compressionRatio).toBeGreaterThan(0.1);
  return out.messages[0]!.content;
}

describe("protected spans survive byte-for-byte at level 1.0", () => {
  const cases: [string, string, string][] = [
    [
      "fenced code",
      "Here is the code:\n```python\ndef  f(x):\n    return   x  *  2\n\n\n\n```\nPlease fix the bug in the code.",
      "```python\ndef  f(x):\n    return   x  *  2\n\n\n\n```",
    ],
    ["an unclosed fence", "Here is the code:\n```js\nconst  a  =  1;\n\n\n\nthe  rest  is  code", "```js\nconst  a  =  1;\n\n\n\nthe  rest  is  code"],
    ["inline code", "Call the function `make_the_list( a,  b )` in the loop.", "`make_the_list( a,  b )`"],
    ["double-quoted strings", 'Use the title "The Art of the Deal" for the post.', '"The Art of the Deal"'],
    [
      "a quotation after a stray quote (an inch mark)",
      'The 27" screen is the one the team bought. Then she said "we have to see the plan through to the end" to the board.',
      '"we have to see the plan through to the end"',
    ],
    ["curly quotes", "Say “in the end it is the journey” to the reader.", "“in the end it is the journey”"],
    [
      "escaped quotes pasted on one line",
      'A 5" screen. Examples: {\\"user\\": \\"Create the dashboard for the team and the managers\\", \\"note\\": \\"the plan is the best\\"} end.',
      '\\"Create the dashboard for the team and the managers\\"',
    ],
    ["URLs", "Read the docs at https://example.com/the/path?q=the+a&x=1 before the meeting.", "https://example.com/the/path?q=the+a&x=1"],
    ["numbers and units", "Write it in under 200 words and 3.5 pages, at 12 pt, by 10:30 am.", "under 200 words"],
    ["numbers in words", "There are three hundred and twenty-five of the items in the box.", "three hundred and twenty-five"],
    ["dates", "The meeting is on Tuesday, March 5, 2024 at the office.", "March 5, 2024"],
    ["negations with the words they bind", "I don't want you to use the recursion in the solution.", "don't want you"],
    ["an explicit negative constraint", "Do not use recursion in the solution.", "Do not use recursion"],
    ["a constraint", "Do not use recursion. The answer must be in the form of a table.", "must be in"],
    ["a length limit", "Write the summary of the report in under 200 words for the board.", "under 200 words"],
    ["named entities", "Compare the plans of Acme Corp and the New York Times for the year.", "Acme Corp"],
    ["identifiers", "Rename the variable user_id to userId in the file config.yaml.", "config.yaml"],
    ["template slots", "Reply to the message {user_message} with the tone of [TONE].", "{user_message}"],
  ];
  for (const [what, text, span] of cases) {
    test(what, () => {
      expect(text).toContain(span);
      // The guard itself: no rule can see the span. Most of these spans hold nothing a rule removes since
      // issue 25 (number words never did), so the squeeze alone would pass without the guard (issue 33).
      expect(mask(text)!.masked).not.toContain(span);
      expect(squeeze(text)).toContain(span);
    });
  }

  test("list structure: markers, line breaks and order stay", () => {
    const list = "Steps:\n1. Open the file.\n2. Read the data from the file.\n   - check the header of the table\n3. Close the file.";
    const out = squeeze(list);
    const markers = (s: string) => s.match(/^[ \t]*(?:\d+\.|-)[ \t]/gm);
    expect(markers(out)).toEqual(markers(list));
  });

  test("list structure: no marker is lost or made by the rules that drop repeats and bold", () => {
    const text =
      "Checks:\n- Look for the notes. Then read the notes.\n- Look for the notes. Then read the plan.\n\n**1) Logical order**\nThe steps of the plan come first.\n**2.** Then the rest of the plan.";
    const markers = (s: string) => s.match(/^[ \t]*(?:\d+[.)]|-)[ \t]/gm);
    expect(markers(squeeze(text))).toEqual(markers(text));
  });

  test("negation inside filler: the request is not inverted", () => {
    const out = squeeze("I don't want you to write any tests. Basically, I really don't want you to change the API.");
    // Every negation stays with its verb, and no negated request became a command.
    expect(out.match(/don't want you to (?:write any tests|change (?:the )?API)/g)).toHaveLength(2);
    expect(out).not.toMatch(/(?:^|[.!?]\s+)(?:Write any tests|Change the API)/m);
  });

  test("a negated constraint keeps its meaning when the words around it are pruned", () => {
    const out = squeeze("You should never use the global state in the handlers, and you should not log the user tokens.");
    expect(out).toContain("never use the");
    expect(out).toContain("not log the");
    expect(out).toContain("global state");
  });

  test("non-English text is not mangled", () => {
    for (const text of [
      "Voy a la playa con mis amigos y a comer en el restaurante de la esquina.",
      "東京の天気を教えてください。明日は雨が降りますか？",
      "Пожалуйста, переведите этот текст на английский язык.",
    ]) {
      expect(squeeze(text)).toContain(text);
    }
  });

  test("emoji survive and do not break the text around them", () => {
    const text = "Write the caption 🎉🔥 for the launch 🚀 of the app 👨‍👩‍👧.";
    const out = squeeze(text);
    for (const e of ["🎉🔥", "🚀", "👨‍👩‍👧"]) expect(out).toContain(e);
  });
});

describe("masking", () => {
  test("mask and unmask give back the text exactly", () => {
    const text = 'Use `x = 1` and "quoted" text with 42 kg, see https://a.b/c, not now.\n```\ncode\n```';
    const m = mask(text)!;
    expect(m.originals.length).toBeGreaterThan(4);
    expect(unmask(m.masked, m.originals)).toBe(text);
  });
  test("more spans than one placeholder digit holds still round-trip", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `item ${i}`).join(", ");
    const m = mask(text)!;
    expect(m.originals.length).toBeGreaterThan(4096);
    expect(unmask(m.masked, m.originals)).toBe(text);
  });
  test("text using the placeholder alphabet is passed through uncompressed", () => {
    const text = "Icons \uE0A0 \uE0B0 in the prompt. I was wondering if you could possibly help me write a poem.";
    expect(mask(text)).toBeNull();
    const out = compressMessages([{ role: "user", content: text }], { aggressiveness: 1, skipRules: [] });
    expect(out.messages[0]!.content).toBe(text);
  });
});

describe("social sentences", () => {
  const spans = (text: string) => protectedSpans(text).map((s) => text.slice(s.start, s.end));

  test("a negation inside a social sentence is not guarded (the sentence goes whole); outside one it is", () => {
    expect(spans("I hope you're doing well this week. Write a poem about the sea in 3 lines.")).toEqual(["3 lines"]);
    expect(spans("I hope this isn't a silly question. Do not use recursion.")).toEqual(["Do not use recursion"]);
    expect(spans("Is this a silly question? It isn't a test of recursion.")).toContain("isn't a test");
  });
});
