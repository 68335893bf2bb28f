import type { Token } from "./tokens";

/**
 * How general English writes a word: "l" mostly lower case, "u" mostly capitalised, "s" mostly first in
 * a sentence ("Hi", "Please"), "x" mixed; then log10 of how often it was seen ("l4": very common).
 */
export type CaseClass = `${"l" | "u" | "s" | "x"}${0 | 1 | 2 | 3 | 4}`;
export type CaseProfile = ReadonlyMap<string, CaseClass>;

/** What the features look words up in: the case profile and the names seen as PERSON in training. */
export interface Lexicon {
  cases: CaseProfile;
  names: ReadonlySet<string>;
}

/** The labels the tagger gives a token. */
export const LABELS = ["O", "PERSON", "ADDRESS"] as const;
export type Label = (typeof LABELS)[number];

/** "Xx" for "Smith", "d" for "42", "Xd" for "B12": character classes with repeats collapsed. */
export function shape(word: string): string {
  let out = "";
  let prev = "";
  for (let i = 0; i < word.length && out.length < 6; i++) {
    const c = word[i]!;
    const k = c >= "0" && c <= "9" ? "d" : c !== c.toLowerCase() ? "X" : c !== c.toUpperCase() ? "x" : c === "'" || c === "’" || c === "-" ? "-" : "x";
    if (k !== prev) out += k;
    prev = k;
  }
  return out;
}

/**
 * Whether the tagger scores a token at all. Lower-case words that general English writes in lower
 * case are never a name or an address on their own, and skipping them is most of the tagger's speed:
 * ordinary prose is 80-90% such words. A lower-cased text ("call dawn jessen") still has its rare
 * words scored.
 */
export function isCandidate(token: Token, lex: Lexicon): boolean {
  const c = token.text.charCodeAt(0);
  if (c < 128 && !(c >= 97 && c <= 122)) return true; // digit or capital ASCII
  if (c >= 128 && token.text[0] !== token.lower[0]) return true; // capital in another script
  return lex.cases.get(token.lower)?.[0] !== "l" || lex.names.has(token.lower);
}

function caseOf(token: Token | undefined, lex: Lexicon): string {
  if (token === undefined) return "none";
  const c = lex.cases.get(token.lower);
  // The class alone, and with how common: both are features, so rare words share what they teach.
  return (c === undefined ? "unk" : c[0]!) + (lex.names.has(token.lower) ? "n" : "");
}

/** The feature strings of token i, given the labels already chosen for the two before it. */
export function features(tokens: readonly Token[], i: number, prev: Label, prev2: Label, lex: Lexicon): string[] {
  const t = tokens[i]!;
  const p1 = tokens[i - 1];
  const p2 = tokens[i - 2];
  const n1 = tokens[i + 1];
  const n2 = tokens[i + 2];
  const s = shape(t.text);
  const c = caseOf(t, lex);
  const f = [
    "b",
    "w=" + t.lower,
    "s=" + s,
    "c=" + c,
    "cs=" + c + s,
    "cf=" + (lex.cases.get(t.lower) ?? "unk") + (t.gap === "start" || t.gap === "stop" || t.gap === "newline" ? "^" : ""),
    "g=" + t.gap,
    "gn=" + (n1 ? n1.gap : "end"),
    "p1=" + (p1 ? p1.lower : "^"),
    "n1=" + (n1 ? n1.lower : "$"),
    "p2=" + (p2 ? p2.lower : "^"),
    "n2=" + (n2 ? n2.lower : "$"),
    "p1s=" + (p1 ? shape(p1.text) : "^") + t.gap,
    "n1s=" + (n1 ? shape(n1.text) : "$"),
    "p1c=" + caseOf(p1, lex),
    "n1c=" + caseOf(n1, lex),
    "t=" + prev,
    "tt=" + prev2 + prev,
    "ts=" + prev + s + t.gap,
    // Punctuation touching the word: "/" and "@" put it in a URL or address, "(" and ":" after a label.
    "cb=" + t.before + t.after,
  ];
  if (t.lower.length > 3) f.push("x3=" + t.lower.slice(-3), "x2=" + t.lower.slice(-2));
  if (s === "d") f.push("dl=" + Math.min(t.text.length, 7));
  return f;
}
