import { arenaHard, awesomeChatgptPrompts, mtBench, selfInstruct } from "../word-stats/corpora";

/**
 * Labelled pairs for the quality score (issue 25): a real prompt and an edit of it, labelled safe (asks
 * for the same thing) or changed (a meaning-changing edit). Prompts: ../shared/data (awesome-chatgpt-
 * prompts, self-instruct, arena-hard, mt-bench) and the hand-written ones below. Edits: written here by
 * rule, each of a kind the issue names. Split by prompt: a prompt's pairs are all in one split, and the
 * test split (a hash of the prompt's id) is never used to fit or tune anything.
 */
export interface LabelledPair {
  original: string;
  compressed: string;
  safe: boolean;
  kind: string;
  split: "train" | "test";
}

/** Hand-written by us for this file: tasks that operate on a text, where the text is data. */
const DATA_TASKS = [
  "Can you proofread this paragraph for me?\n\nThe team have been working on the the new release for three month. We is hoping to ship it next week, but their are still a few bugs.",
  "Please fix the grammar in the following email:\n\nHi Tom, I wanted to let you know that the report are ready. Let me know if you has any question.",
  "How many times does the word 'data' appear in this text? Data is everywhere. We store data, we clean data, and we sell the data.",
  "Translate this into French: The meeting is moved to Thursday because the manager is on a trip.",
  "Rewrite the following paragraph so it sounds more formal:\n\nHey guys, the thing is that the budget is kind of a mess and we need to fix it soon.",
  "Count the sentences in this passage. The sun rose. The birds sang. The town woke up slowly, and the bakery opened its doors.",
  "Summarize this transcript:\n\nAlice: I think the launch should wait.\nBob: Why? The tests pass.\nAlice: The docs are not ready and support is not trained.",
  "Classify the sentiment of this review: The hotel was clean, but the staff were rude and the breakfast was cold.",
];

/** Social framing people write around a request; written by us. */
const OPENERS = [
  "Hi there! I hope you are doing well.",
  "Hey! Hope your day is going well.",
  "Hello, sorry if this is a dumb question.",
  "Good morning! Hope you're having a great week.",
];
const CLOSERS = ["Thanks in advance!", "Thank you so much, really appreciate it!", "Any help would be greatly appreciated.", "Thanks a lot haha"];
const LEAD_INS = ["I was wondering if you could", "Could you please", "Would you mind helping me to", "I'd really like you to"];

const NEGATION = /\b(?:not|never|no|don't|do not|without)\b/i;
const NUMBER = /\b\d+(?:\.\d+)?\b/;
const FORMAT = /\b(?:bullet points?|a table|in bold|json|markdown|numbered list|one paragraph|under \d+ words|only|exactly|each|every|concise|formal)\b/i;
const SENTENCE = /[^.!?\n]+[.!?]+/g;
const WORD = /\b[a-zA-Z]{4,}\b/g;
/** Words whose loss an edit must not be labelled for: they may be framing. */
const FRAMING =
  /^(?:that|this|with|from|your|have|will|would|could|should|about|there|their|they|them|what|which|when|where|please|just|really|very|also|want|like|help|some|more|into|than|then|only|each|every)$/i;

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A deterministic generator, seeded per prompt, so a rebuild makes the same pairs. */
function random(seed: number): () => number {
  let s = seed || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const pick = <T>(xs: readonly T[], r: () => number): T => xs[Math.floor(r() * xs.length)]!;
const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);

/** The edits of one prompt, safe and changed. */
function editsOf(prompt: string, r: () => number): Omit<LabelledPair, "split">[] {
  const out: Omit<LabelledPair, "split">[] = [];
  const add = (compressed: string, safe: boolean, kind: string, original = prompt) => {
    if (compressed !== original && compressed.trim() !== "") out.push({ original, compressed, safe, kind });
  };
  // Safe: social framing around the request removed, an indirect request made direct, hedges and blanks.
  const framed = `${pick(OPENERS, r)} ${prompt}\n\n${pick(CLOSERS, r)}`;
  add(prompt, true, "social framing removed", framed);
  if (
    /^(?:Write|Explain|Create|Give|List|Summari[sz]e|Translate|Describe|Generate|Make|Suggest|Provide|Tell|Rewrite|Find|Compose|Design|Draft|Act|Compare|Calculate|Solve|Plan|Recommend|Identify|Classify|Convert|Outline) /.test(
      prompt,
    )
  ) {
    add(prompt, true, "indirect request made direct", `${pick(OPENERS, r)} ${pick(LEAD_INS, r)} ${lowerFirst(prompt)} ${pick(CLOSERS, r)}`);
  }
  add(prompt.replace(/\b(?:really|very|just|basically|actually) /gi, ""), true, "hedges removed");
  add(
    prompt
      .replace(/[ \t]{2,}/g, " ")
      .replace(/\n{3,}/g, "\n\n")
      .trim(),
    true,
    "whitespace",
  );
  add(prompt.replace(/\bin order to\b/gi, "to").replace(/\bdue to the fact that\b/gi, "because"), true, "wordy phrase shortened");
  // Changed: a content word, a negation, a number, a format or constraint, a sentence, a word order.
  const words = [...prompt.matchAll(WORD)].filter((m) => !FRAMING.test(m[0]));
  if (words.length > 0) {
    const w = pick(words, r);
    add(prompt.slice(0, w.index) + prompt.slice(w.index + w[0].length), false, "content word dropped");
  }
  if (words.length > 3) {
    const a = pick(words, r);
    const b = pick(words, r);
    if (a.index < b.index && a[0].toLowerCase() !== b[0].toLowerCase()) {
      add(
        prompt.slice(0, a.index) + b[0] + prompt.slice(a.index + a[0].length, b.index) + a[0] + prompt.slice(b.index + b[0].length),
        false,
        "content words swapped",
      );
    }
  }
  const neg = NEGATION.exec(prompt);
  if (neg) add(prompt.slice(0, neg.index) + prompt.slice(neg.index + neg[0].length), false, "negation dropped");
  const num = NUMBER.exec(prompt);
  if (num)
    add(prompt.slice(0, num.index) + String(Number(num[0]) + 1 + Math.floor(r() * 9)) + prompt.slice(num.index + num[0].length), false, "number changed");
  const format = FORMAT.exec(prompt);
  if (format) add(prompt.slice(0, format.index) + prompt.slice(format.index + format[0].length), false, "format or constraint dropped");
  const sentences = [...prompt.matchAll(SENTENCE)].filter((m) => m[0].trim().split(/\s+/).length >= 4);
  if (sentences.length >= 2) {
    const s = pick(sentences, r);
    add(prompt.slice(0, s.index) + prompt.slice(s.index + s[0].length), false, "instruction sentence dropped");
  }
  return out;
}

/** Edits of the data in a task that operates on it: an article or a repeated word gone from the text. */
function dataEdits(prompt: string): Omit<LabelledPair, "split">[] {
  const out: Omit<LabelledPair, "split">[] = [];
  const body = prompt.search(/[:?]\s/) + 2;
  const tail = prompt.slice(body);
  const article = /\b(?:the|a|an) /i.exec(tail);
  if (article)
    out.push({
      original: prompt,
      compressed: prompt.slice(0, body + article.index) + tail.slice(article.index + article[0].length),
      safe: false,
      kind: "data edited",
    });
  const copula = /\b(?:is|are|was|were) /i.exec(tail);
  if (copula)
    out.push({
      original: prompt,
      compressed: prompt.slice(0, body + copula.index) + tail.slice(copula.index + copula[0].length),
      safe: false,
      kind: "data edited",
    });
  out.push({ original: `${OPENERS[0]} ${prompt} ${CLOSERS[0]}`, compressed: prompt, safe: true, kind: "social framing removed" });
  return out;
}

const PER_CORPUS = 300;

/** Every labelled pair, train and test. */
export function labelledPairs(): LabelledPair[] {
  const prompts: { id: string; text: string }[] = [];
  for (const [name, corpus] of [
    ["awesome", awesomeChatgptPrompts()],
    ["self-instruct", selfInstruct()],
    ["arena-hard", arenaHard()],
    ["mt-bench", mtBench()],
  ] as const) {
    const usable = corpus.filter((p) => p.turns[0]!.length >= 40 && p.turns[0]!.length <= 3000);
    for (const p of usable.slice(0, PER_CORPUS)) prompts.push({ id: `${name}:${p.id}`, text: p.turns[0]! });
  }
  const pairs: LabelledPair[] = [];
  for (const { id, text } of prompts) {
    const split = fnv(id) % 10 < 3 ? "test" : "train";
    for (const e of editsOf(text, random(fnv(id)))) pairs.push({ ...e, split });
  }
  DATA_TASKS.forEach((text, i) => {
    const split = i % 3 === 0 ? "test" : "train";
    for (const e of [...dataEdits(text), ...editsOf(text, random(fnv(text)))]) pairs.push({ ...e, split });
  });
  return pairs;
}
