import { describe, expect, test } from "bun:test";
import type { ChatMessage } from "../../src/core/messages";
import { dominantScript, promptSignals, type Script } from "../../src/pipeline/route";
import { countMessageTokens } from "../../src/tokens/count";

const user = (content: string): ChatMessage => ({ role: "user", content });

describe("promptSignals", () => {
  test("counts the prompt's tokens with chat framing, or takes the pipeline's count", () => {
    const messages = [{ role: "system", content: "You are terse." } as ChatMessage, user("What is the capital of France?")];
    expect(promptSignals({ messages }).promptTokens).toBe(countMessageTokens(messages));
    expect(promptSignals({ messages }, 4242).promptTokens).toBe(4242);
  });

  test("max_tokens defaults to the interface's 1000", () => {
    expect(promptSignals({ messages: [user("hi")] }).maxCompletionTokens).toBe(1000);
    expect(promptSignals({ messages: [user("hi")], max_tokens: 64 }).maxCompletionTokens).toBe(64);
  });

  test("counts fenced code blocks, including an unclosed one, but not inline backticks", () => {
    const two = "Why does this fail?\n```python\nprint(x)\n```\nand\n~~~\nls -l\n~~~";
    expect(promptSignals({ messages: [user(two)] }).codeFences).toBe(2);
    expect(promptSignals({ messages: [user("fix:\n```js\nlet a =")] }).codeFences).toBe(1);
    expect(promptSignals({ messages: [user("use `git status` and ``x``")] }).codeFences).toBe(0);
    expect(promptSignals({ messages: [user("~~~\nls -la\n~~~")] }).codeFences).toBe(1);
  });

  test("three lines of code pasted without a fence are pasted code; prose, lists and numbers are not", () => {
    const pasted = (text: string) => promptSignals({ messages: [user(text)] }).pastedCode;
    expect(pasted("do you know why this is broken?\nimport bpy\nimport os\n\ndef bake(obj):\n    return obj.name")).toBe(true);
    expect(pasted('#include <stdio.h>\r\nint main() {\r\n  printf("hi");\r\n}')).toBe(true);
    expect(pasted("Write a cmake file for this:\npackage com.example\nimport x.y;")).toBe(false);
    expect(pasted("Mum turns 70 on Sunday.\nWe booked a table for 12 at 7pm.\nAny toast ideas?")).toBe(false);
    expect(pasted("Pros:\n- cheap\n- light\nCons:\n- loud (very)\n1. first\n2. second")).toBe(false);
    // JSON and lists are not code, though their lines end in "{" or ";".
    expect(pasted('Make an image from this:\n{\n  "style": {\n    "mood": "calm",\n  "subject": {\n}')).toBe(false);
    expect(pasted("Rules:\n- no frames;\n- no markers;\n- no repeats;")).toBe(false);
    // A line longer than a line of code is prose, whatever it ends with.
    expect(pasted(`${"word ".repeat(50)};\n`.repeat(3))).toBe(false);
  });

  test("small talk asks the assistant about itself; a question that only says 'you' or 'your' is none", () => {
    const smallTalk = (text: string) => promptSignals({ messages: [user(text)] }).smallTalk;
    for (const text of [
      "Finally finished the 1,000-piece puzzle after 5 weekends. Have you ever done one that big?",
      "Just got promoted after 6 years at the firm! How's your week been?",
      "Rainy Sunday here, nothing planned. What's your ideal lazy day?",
      "My team lost 2-1 in extra time. Do you follow any sport?",
    ])
      expect(smallTalk(text)).toBe(true);
    // Forms that code and reasoning rows use (issue 26's twelfth round), and the assistant's own words.
    for (const text of [
      "What's the best way to store passwords in a database?",
      "The coffee machine breaks every Monday. What's your best guess as to why?",
      "If you could only keep three of these in a week-long blackout, which and why?",
      "Would you rather have a dog or a cat if you work 10 hour days? Think it through.",
      "Do you have any idea why my build fails?",
    ])
      expect(smallTalk(text)).toBe(false);
    expect(promptSignals({ messages: [{ role: "assistant", content: "How's your day going?" } as ChatMessage, user("sort a list in python")] }).smallTalk).toBe(
      false,
    );
  });

  test("an estimate to work out is one; 'roughly' before a known figure is none", () => {
    const estimation = (text: string) => promptSignals({ messages: [user(text)] }).estimation;
    for (const text of [
      "Please estimate, with a breakdown, how many litres of coffee a 3,000-person conference drinks.",
      "Fermi question: piano tuners in Chicago?",
      "back of the envelope, what would it cost to repaint every house on my street",
      "ballpark figure for the weight of all the ants on earth",
    ])
      expect(estimation(text)).toBe(true);
    for (const text of [
      "Roughly how far is Saturn from the sun?",
      "how many euros is a dollar worth these days, roughly?",
      "Who estimated the age of the universe first?",
    ])
      expect(estimation(text)).toBe(false);
  });

  test("the share of software words is the classifier's tech_share of the user's text", () => {
    const share = (text: string) => promptSignals({ messages: [user(text)] }).softwareShare;
    expect(share("write a terraform config for an aws postgres cluster")).toBeGreaterThanOrEqual(0.25);
    expect(share("we adopted a puppy yesterday and she chewed two socks")).toBe(0);
  });

  test("counts the user's turns", () => {
    const chat: ChatMessage[] = [{ role: "system", content: "be nice" }, user("hello"), { role: "assistant", content: "hi!" }, user("how are you?")];
    expect(promptSignals({ messages: chat }).userTurns).toBe(2);
  });

  test("tools offered, or a tool call in the history, need a tool-capable model", () => {
    const tool = { type: "function", function: { name: "get_weather", parameters: {} } };
    expect(promptSignals({ messages: [user("weather?")], params: { tools: [tool] } }).needsTools).toBe(true);
    expect(promptSignals({ messages: [user("weather?")], params: { tools: [tool], tool_choice: "none" } }).needsTools).toBe(false);
    expect(promptSignals({ messages: [user("weather?")], params: { tools: [] } }).needsTools).toBe(false);
    const history: ChatMessage[] = [
      user("weather?"),
      { role: "assistant", content: "", tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
      { role: "tool", content: "sunny", tool_call_id: "c1" },
    ];
    expect(promptSignals({ messages: history }).needsTools).toBe(true);
  });

  test("JSON mode is json_object or json_schema", () => {
    const withFormat = (type: string) => promptSignals({ messages: [user("list")], params: { response_format: { type } } }).needsJson;
    expect(withFormat("json_object")).toBe(true);
    expect(withFormat("json_schema")).toBe(true);
    expect(withFormat("text")).toBe(false);
    expect(promptSignals({ messages: [user("list")] }).needsJson).toBe(false);
  });

  test("json_schema is told apart from json_object", () => {
    const schema = (type: string) => promptSignals({ messages: [user("list")], params: { response_format: { type } } }).needsJsonSchema;
    expect(schema("json_schema")).toBe(true);
    expect(schema("json_object")).toBe(false);
    expect(promptSignals({ messages: [user("list")] }).needsJsonSchema).toBe(false);
  });

  test("an image part in any message needs vision; its text parts still count", () => {
    const parts = [
      { type: "text", text: "What is in this picture?\n```\nx\n```" },
      { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
    ];
    // The gateway's message carries the text parts joined as `content` and every part in `parts`.
    const withImage = { role: "user", content: parts[0]!.text, parts } as unknown as ChatMessage;
    const s = promptSignals({ messages: [withImage] }, 10);
    expect(s.needsVision).toBe(true);
    expect(s.codeFences).toBe(1);
    const textOnly = { role: "user", content: parts[0]!.text } as unknown as ChatMessage;
    expect(promptSignals({ messages: [textOnly] }, 10).needsVision).toBe(false);
    expect(promptSignals({ messages: [user("a picture of a cat: image_url")] }).needsVision).toBe(false);
  });

  test("the hardness signals read every user message but not the system prompt", () => {
    const messages = [
      { role: "system", content: "You must answer. You must be brief. You must not lie." } as ChatMessage,
      user("Plan my day. It must start after 9."),
      { role: "assistant", content: "Before I do: must it end before 5?" } as ChatMessage,
      user("Yes, and lunch must be between 12 and 1."),
    ];
    // must, after / must, between: the assistant's and system's cues are not the user's constraints.
    expect(promptSignals({ messages }, 50).hardness.constraints).toBe(4);
  });

  test("the script is read from the user's messages, not the system prompt", () => {
    const messages = [{ role: "system", content: "You are a helpful assistant." } as ChatMessage, user("Как дела? Что нового?")];
    expect(promptSignals({ messages }).script).toBe("cyrillic");
  });
});

describe("dominantScript", () => {
  test.each([
    ["How do I reset my password?", "latin"],
    ["Où est la bibliothèque ? Ça dépend.", "latin"],
    ["Привет, как дела?", "cyrillic"],
    ["请把这句话翻译成英文。", "cjk"],
    ["これは日本語の文です。", "cjk"],
    ["안녕하세요, 반갑습니다", "hangul"],
    ["مرحبا كيف حالك", "arabic"],
    ["שלום עולם", "hebrew"],
    ["नमस्ते दुनिया", "devanagari"],
    ["Καλημέρα κόσμε", "greek"],
    ["สวัสดีครับ", "thai"],
    ["12345 + 678 = ? 🎉🎉", "none"],
    // All ASCII, decided without the per-character loop: a letter is Latin, no letter is none.
    ["12345 + 678 = ?", "none"],
    ["x = 12345 + 678", "latin"],
    ["", "none"],
  ] as [string, Script][])("%s is %s", (text, script) => {
    expect(dominantScript(text)).toBe(script);
  });

  test("a translation request is judged by the language most of it is written in", () => {
    expect(dominantScript("Translate into English: 今天天气很好，我们去公园散步吧，好吗？")).toBe("cjk");
    expect(dominantScript("Please translate the following sentence into English for me: 你好")).toBe("latin");
  });
});
