import type { CompressionRule } from "../types";
import { capitalize, removeRanges, rewriteAll, type RewriteStep } from "../text/rewrite";
import { splitSentences } from "../text/sentences";
import {
  ADDRESSEE,
  isEmojiOnly,
  isSocialSentence,
  laughterRanges,
  opensSocially,
  SOCIAL_CLAUSE,
  SOCIAL_TAIL,
  SOCIAL_WORD,
  socialLeadLength,
} from "../text/social";

/** An opening greeting with its punctuation, when more follows it. */
const GREETING = new RegExp(
  String.raw`^(?:hi|hello|hey|hiya|greetings|good (?:morning|afternoon|evening)|dear)${ADDRESSEE}(?:[ \t]*[,!.]+|[ \t]*(?=\n))\s*(?=\S)`,
  "i",
);

/** A line of at most three words closing the message: a name under a sign-off ("Best regards,\nJohn Smith"), maybe content. */
const NAME_LINE = /^\s*\S+(?:[ \t]+\S+){0,2}\s*$/;

/** Social sentences and clauses, found sentence by sentence in the masked text (data is masked and never read). */
function socialRanges(text: string): { ranges: { start: number; end: number }[]; capitalizeAt: number[] } {
  const ranges: { start: number; end: number }[] = [];
  const capitalizeAt: number[] = [];
  const sentences = splitSentences(text);
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i]!;
    const sentence = text.slice(s.start, s.end);
    const last = ranges[ranges.length - 1];
    if (isSocialSentence(sentence) || (last?.end === s.start && isEmojiOnly(sentence))) {
      const rest = text.slice(s.next);
      // A sign-off above a short last line may be a pasted letter's: the name is content.
      if (rest.trim() !== "" && !rest.includes("\n\n") && rest.startsWith("\n") && NAME_LINE.test(rest)) continue;
      if (last && last.end === s.start) last.end = s.next;
      else ranges.push({ start: s.start, end: s.next });
      continue;
    }
    const lead = socialLeadLength(sentence);
    if (lead > 0) {
      ranges.push({ start: s.start, end: s.start + lead });
      capitalizeAt.push(s.start + lead);
    }
    const tail = SOCIAL_TAIL.exec(sentence);
    if (tail) ranges.push({ start: s.start + tail.index, end: s.start + tail.index + tail[0].length });
  }
  // A removal that ends its line takes the blanks before it: "Summarize it. Thanks!" -> "Summarize it."
  for (let k = 0; k < ranges.length; k++) {
    const r = ranges[k]!;
    const floor = k > 0 ? ranges[k - 1]!.end : 0;
    if (r.end === text.length || text[r.end] === "\n") while (r.start > floor && (text[r.start - 1] === " " || text[r.start - 1] === "\t")) r.start--;
  }
  return { ranges, capitalizeAt };
}

/** What may close a sentence (splitSentences): its end marks and the quotes and brackets after them. */
const CLOSING_MARKS = `.!?"'”’)]`;

const PLEASE = /please/i;
const mentionsPlease = (text: string) => PLEASE.test(text);

const PLEASE_STEPS: readonly RewriteStep[] = [
  [GREETING, () => ""],
  [SOCIAL_CLAUSE, () => "", (text) => text.includes(", if")],
  // "Please" as a courtesy before a request or at its end.
  [/(?<=^|[.!?:][ \t]+|\n[ \t]*)please,?[ \t]+([a-z])/gim, (_, first) => capitalize(first!), mentionsPlease],
  [/(?<=[a-z])[ \t]+please(?=[ \t]+[a-z])/g, () => "", mentionsPlease],
  [/,?[ \t]+please(?=[.!?]|$)/gim, () => "", mentionsPlease],
];

/** Greetings, well-wishing, thanks, apologies, laughter, sign-offs and "please": courtesy the model does not need. */
export const pleasantries: CompressionRule = {
  name: "pleasantries",
  minLevel: 0.1,
  apply(text, ctx) {
    let saved = 0;
    // Laughter inside a sentence goes first: what is left of "This is a fun one haha." is a social sentence.
    const laughter = laughterRanges(text);
    if (laughter.length > 0) {
      const out = removeRanges(text, laughter, ctx);
      text = out.text;
      saved += out.saved;
    }
    if (SOCIAL_WORD.test(text)) {
      const { ranges, capitalizeAt } = socialRanges(text);
      if (ranges.length > 0) {
        let capitalized = text;
        for (const at of capitalizeAt) capitalized = capitalized.slice(0, at) + capitalized[at]!.toUpperCase() + capitalized.slice(at + 1);
        const out = removeRanges(capitalized, ranges, ctx);
        // A message that is only courtesy is kept: the turn was there for a reason.
        if (out.text.trim() !== "") {
          text = out.text;
          saved += out.saved;
        }
      }
    }
    const rest = rewriteAll(text, PLEASE_STEPS, ctx);
    return { text: rest.text, saved: saved + rest.saved };
  },
  // A sentence of the masked text with no placeholder in it starts a sentence of the original (masking
  // leaves the punctuation and line breaks that end sentences, and adds none), which it is but for the
  // closing marks a span may open with ('Hi there!"quoted"'): a social sentence, lead or tail holds no
  // placeholder, so each is found in the original's sentences, cut back over their closing marks.
  mayChange(original) {
    if (mentionsPlease(original) || original.includes(", if") || GREETING.test(original) || laughterRanges(original).length > 0) return true;
    return splitSentences(original).some(({ start, end }) => {
      const sentence = original.slice(start, end);
      // SOCIAL_TAIL opens with a comma; the rest with a social opening word.
      const opens = opensSocially(sentence);
      if (!opens && !sentence.includes(",")) return false;
      if (opens && socialLeadLength(sentence) > 0) return true;
      for (let cut = sentence.length; cut > 0; cut--) {
        const head = cut === sentence.length ? sentence : sentence.slice(0, cut);
        if ((opens && isSocialSentence(head)) || SOCIAL_TAIL.test(head)) return true;
        if (!CLOSING_MARKS.includes(sentence[cut - 1]!)) return false;
      }
      return false;
    });
  },
};
