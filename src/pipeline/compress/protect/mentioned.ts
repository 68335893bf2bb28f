import type { Span } from "./spans";

/** What may close the sentence before: its end mark, a closing quote or bracket, a dash, or a line break. */
const BOUNDARY = String.raw`(?:[.!?)\]]["'”’]?[ \t]*(?:[—–-][ \t]*)?|\n[ \t]*)`;
/**
 * A sentence that opens on what came before: "Is that too informal?", "Does this sound rude?", "That's all my boss
 * wrote", "This sounds cold". Not "it" ("It's 11pm", "Is it possible for you to ...") nor "This is" ("This is a sad
 * one"), which open on nothing before them in most prompts (a first reading of this rule changed 30 of 4,165
 * prompts of the compression corpora and dev sets, all through those, and kept what it should not have).
 */
const POINTING_OPENER = new RegExp(
  String.raw`${BOUNDARY}(?=(?:is|was|are|does|did|do|would|will|can|could|should|isn['’]t|doesn['’]t)\s+(?:that|this)\b(?!\s+(?:possible|ok|okay)\b)|that(?:['’]s\b|\s+(?:is|was|sounds?|seems?|reads?|means?|looks?|feels?|comes?\s+across)\b)|this\s+(?:sounds?|seems?|reads?|looks?|feels?|comes?\s+across)\b)`,
  "gi",
);
/** "Happy new week! is the slogan on our flyer": a lower-case copula goes on from a phrase that ended in its own mark. */
const CONTINUING_COPULA = /[.!?]["'”’]?[ \t]*(?:[—–-][ \t]*)?(?=(?:is|was|are|were|means|sounds)\s\S)/g;
/**
 * Anywhere in a sentence: a demonstrative naming a phrase ("this greeting", "that Nigerian phrase"), a reply asked
 * to one ("how do I answer this?"), a phrase someone said ("my colleague asked me this on Slack"), "what does that
 * mean". A sentence where a colon or a quotation follows points ahead, at a text of its own ("fix the grammar in
 * this sentence: me and him goes ..."), not back.
 */
const POINTING_WORDS =
  /\b(?:(?:this|that|these|those|such an?)\s+(?:[\w'-]+\s+){0,2}?(?:greeting|phrase|expression|saying|sentence|line|wording|slogan|opener|opening|sign-?off|closing|salutation|compliment|remark|words)\b|(?:answer|reply\s+to|respond\s+to)\s+(?:this|that|it)(?=\s*[.?!,;]|\s+(?:in|on|to|for|with|politely|properly|back)\b)|(?:asked|told|wrote|sent|texted|said|messaged)\s+(?:me\s+|us\s+)?(?:this|that)(?=\s*[.?!,;]|\s+(?:on|in|over|via|by|at|yesterday|today|earlier|last)\b)|what\s+(?:does|did)\s+that\s+mean\b)/gi;
/** A phrase asked about is short: a greeting, a sign-off, a line of a message. Longer sentences are the user's own. */
const MENTIONED_WORDS = 12;

/**
 * A sentence the next one points back at is what the prompt asks about, however social it reads: "Hope you're
 * well! Is that too informal for my landlord?", "Good afternoon o! — is this greeting too casual?", "Happy new
 * week! is the slogan on our flyer.", "How is your side? My colleague asked me this. What should I answer?".
 * Every social rule removed such a sentence (review13c's probes, written against the session's change: 7 of 70
 * lost the phrase they asked about, and the b036bba tree lost the same shape with "Hope you're well!").
 * The sentence right before the pointing one is protected whole; "Hi! This is my first question here." keeps a
 * greeting it could have lost, which costs a few tokens and never a meaning.
 */
export function mentionedSentences(text: string): Span[] {
  const spans: Span[] = [];
  const protect = (at: number) => {
    const span = sentenceBefore(text, at);
    if (span) spans.push(span);
  };
  for (const m of text.matchAll(POINTING_OPENER)) protect(m.index + m[0].length);
  for (const m of text.matchAll(CONTINUING_COPULA)) protect(m.index + m[0].length);
  for (const m of text.matchAll(POINTING_WORDS)) {
    const after = m.index + m[0].length;
    const start = sentenceStart(text, m.index);
    if (start >= 0 && !/[:"“]/.test(text.slice(after, sentenceEnd(text, after)))) protect(start);
  }
  return spans;
}

/**
 * How far the walks below look, in characters: a phrase asked about is MENTIONED_WORDS words at most. Unbounded,
 * each pointer walked its whole sentence, and 100 KB of "what does that mean and " took 2.9 s to compress (11 ms
 * before the rule; a second reading's probe).
 */
const REACH = 240;

/** Where the sentence holding text[at] starts (after the last end mark or line break before it), or -1 past REACH. */
function sentenceStart(text: string, at: number): number {
  const stop = Math.max(0, at - REACH);
  let k = at;
  while (k > stop && !/[.!?\n]/.test(text[k - 1]!)) k--;
  if (k > 0 && !/[.!?\n]/.test(text[k - 1]!)) return -1;
  while (k < at && /\s/.test(text[k]!)) k++;
  return k;
}

/** Where the sentence holding text[at] ends: at its end mark or line break, the text's end, or REACH on. */
function sentenceEnd(text: string, at: number): number {
  const stop = Math.min(text.length, at + REACH);
  let k = at;
  while (k < stop && !/[.!?\n]/.test(text[k]!)) k++;
  return k;
}

/** The sentence that ends right before `at` (its end marks included), or none when `at` opens the text or it is long. */
function sentenceBefore(text: string, at: number): Span | undefined {
  const stop = Math.max(0, at - REACH);
  let end = at;
  while (end > stop && /[\s—–-]/.test(text[end - 1]!)) end--;
  let k = end;
  while (k > stop && /[.!?"'”’)\]]/.test(text[k - 1]!)) k--;
  if (k === 0 || k === stop) return undefined;
  const start = sentenceStart(text, k);
  if (start < 0 || start >= end || text.slice(start, end).split(/\s+/).length > MENTIONED_WORDS) return undefined;
  return { start, end };
}
