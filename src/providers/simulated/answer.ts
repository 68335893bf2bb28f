import type { ChatMessage } from "../../core/messages";

export const STOPWORDS = new Set(
  (
    "about above after again also always among another anything are aren because been before being below between both but " +
    "can cannot could did does doing done down during each either else even ever every explain from further give had has have " +
    "having help here hers herself himself how into its itself just know like make many might more most much must myself need " +
    "never only other ought ours over own please really same should show since some such tell than that the their them then " +
    "there these they thing things this those through under until upon very want was were what when where which while who whom " +
    "why will with within without would you your yours yourself " +
    // Request verbs say what to do, not what about.
    "build compare configure create describe find list suggest summarise summarize use write"
  ).split(" "),
);

const TEMPLATES: readonly ((k: readonly string[]) => string)[] = [
  (k) =>
    `Short answer: it comes down to ${k[0]} and ${k[1]}. Start with ${k[0]}, check how it affects ${k[1]}, then adjust ${k[2]} if the result is not what you expect.`,
  (k) => `In most cases ${k[0]} works best when kept simple. Look at ${k[1]} next, then ${k[2]}, and test each change on its own.`,
  (k) => `Here is a brief take on ${k[0]}: focus first on ${k[1]}, then on ${k[2]}. Keep the first version small and measure before adding more.`,
  (k) =>
    `The key point about ${k[0]} is how it relates to ${k[1]}. Once that is clear, ${k[2]} is a matter of picking the simplest option that fits your case.`,
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
  // Successive variants take successive templates, so up to four choices of one request all differ.
  const template = TEMPLATES[(fnv1a(messages.map((m) => `${m.role}:${m.content}`).join("\u0000")) + variant) % TEMPLATES.length]!;
  return template(filled);
}

/**
 * What the question is about: its first distinct runs of content words ("connection pooling",
 * "PostgreSQL"), at most three words each, in the question's own spelling.
 */
export function topicWords(text: string): string[] {
  const phrases: string[] = [];
  let run: string[] = [];
  const close = () => {
    const phrase = run.slice(0, 3).join(" ");
    if (phrase && !phrases.some((p) => p.toLowerCase() === phrase.toLowerCase())) phrases.push(phrase);
    run = [];
  };
  for (const word of text.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*|[^\s\p{L}\p{N}]+/gu) ?? []) {
    if (word.length >= 4 && /^[\p{L}\p{N}]/u.test(word) && !STOPWORDS.has(word.toLowerCase())) run.push(word);
    else close();
    if (phrases.length === 3) break;
  }
  close();
  return phrases.slice(0, 3);
}

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
