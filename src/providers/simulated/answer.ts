import type { ChatMessage } from "../../pipeline/messages";

const STOPWORDS = new Set(
  (
    "about above after again also always among another anything are aren because been before being below between both but " +
    "can cannot could did does doing done down during each either else even ever every explain from further give had has have " +
    "having help here hers herself himself how into its itself just know like make many might more most much must myself need " +
    "never only other ought ours over own please really same should show since some such tell than that the their them then " +
    "there these they thing things this those through under until upon very want was were what when where which while who whom " +
    "why will with within without would you your yours yourself"
  ).split(" "),
);

const TEMPLATES: readonly ((k: readonly string[]) => string)[] = [
  (k) => `Short answer: it comes down to ${k[0]} and ${k[1]}. Start with ${k[0]}, check how it affects ${k[1]}, then adjust ${k[2]} if the result is not what you expect.`,
  (k) => `In most cases ${k[0]} works best when ${k[1]} is kept simple. Look at ${k[2]} next if you need more detail, and test each change on its own.`,
  (k) => `Here is a brief take on ${k[0]}: focus first on ${k[1]}, since ${k[2]} usually follows from it. Keep the first version small and measure before adding more.`,
  (k) => `The key point about ${k[0]} is ${k[1]}. Once that is clear, ${k[2]} becomes a matter of picking the simplest option that fits your case.`,
];

/**
 * A short, plausible reply made from the words of the last user message, for running without any
 * provider key. Deterministic: the same messages and variant always give the same text.
 */
export function simulatedAnswer(messages: readonly ChatMessage[], variant = 0): string {
  const question = [...messages].reverse().find((m) => m.role === "user")?.content ?? messages.at(-1)?.content ?? "";
  const keywords = topicWords(question);
  if (keywords.length === 0) return "Understood. Tell me a little more about what you need and I will answer in a few lines.";
  const filled = [keywords[0]!, keywords[1] ?? "the details", keywords[2] ?? "the edge cases"];
  const template = TEMPLATES[fnv1a(`${variant}\u0000${messages.map((m) => `${m.role}:${m.content}`).join("\u0000")}`) % TEMPLATES.length]!;
  return template(filled);
}

/** The first distinct content words of a text, in order: what the question is about. */
function topicWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  const seen = new Set<string>();
  for (const w of words) {
    if (w.length >= 4 && !STOPWORDS.has(w)) seen.add(w);
    if (seen.size === 3) break;
  }
  return [...seen];
}

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
