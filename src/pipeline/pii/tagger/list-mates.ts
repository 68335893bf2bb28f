import {
  capitalised,
  flagsOf,
  knownName,
  LABELS,
  lexCode,
  type Lexicon,
  nameCased,
  oftenLower,
  TokenWordSet,
  usuallySentenceStart,
  isLowerAscii,
} from "./features";
import { NOT_A_PERSON } from "./frames";
import { AND } from "./greeted-names";
import { plainGiven } from "./plain-names";
import { Gap, type Tokens } from "./tokens";

const PERSON = LABELS.indexOf("PERSON");
const O = LABELS.indexOf("O");
const OR = new TokenWordSet(["or"]);

/**
 * The person words the names of a list of people leave out, beside a name the tagger found ("ask sanjay or
 * deepa if", "Sergio and Pilar", "Attendees: Folake Adeyemi, Raj, ...", "cc Nadia, Oskar, R. Achterberg,
 * Mele"): a word joined to a found name by "and", "or", ", and", or a list's separator, that is a given
 * name of the lists no English word or a known name (no place's or company's word); in a text that writes
 * the found name in lower case, a lower-case such given name or a word the lexicon never saw. The found
 * name is the cue, never the word alone (a listed given name alone raised the ordinary prompts with a find
 * from 126 to 148 of 2,153). After a separator the word must end an item (a separator, "and"/"or", a stop,
 * the line's end), so a clause after a comma is none ("Thanks Priya, Kubernetes is ..."); after a word no
 * capital may follow ("Priya and Python Team"). Issue 30, thirteenth round: names in lists were a large
 * class of the missed person words of the outside-written bench/data/pii-dev13.txt.
 */
export function listMates(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  // One native scan: most texts have no person.
  if (labels.indexOf(PERSON) < 0) return;
  // Left to right for the words after a name, so each mate found is the next one's anchor ("Aisha, Ben,
  // Chidi" from "Aisha"); right to left for the words before one.
  for (let i = 0; i < tokens.length; i++) {
    if (labels[i] !== PERSON) continue;
    const j = mateAfter(tokens, i);
    if (j >= 0 && labels[j] === O && mate(tokens, i, j, lex)) labels[j] = PERSON;
  }
  for (let i = tokens.length - 1; i > 0; i--) {
    if (labels[i] !== PERSON) continue;
    const j = mateBefore(tokens, i);
    if (j >= 0 && labels[j] === O && mate(tokens, i, j, lex)) labels[j] = PERSON;
  }
}

/** Whether token k is "and" or "or" (its first letter tested before the lookup). */
function conjunction(tokens: Tokens, k: number): boolean {
  const c = tokens.first(k);
  return (c === 97 && AND.has(tokens, k)) || (c === 111 && OR.has(tokens, k));
}

/** Whether a list's separator stands between tokens k and k + 1 on one line: ", ", "; ", " & ", " / " (a comma's space optional: "Aisha,Ben"). */
function separated(tokens: Tokens, k: number): boolean {
  const source = tokens.source;
  let at = tokens.end(k);
  if (source.charCodeAt(at) === 32) at++;
  const c = source.charCodeAt(at++);
  if (c !== 44 && c !== 59 && c !== 38 && c !== 47) return false;
  const next = tokens.start(k + 1);
  while (at < next && source.charCodeAt(at) === 32) at++;
  return at === next;
}

/** The word joined to token i from the right by a list's separator or by "and", "or", ", and" on one line; -1 if none. */
function mateAfter(tokens: Tokens, i: number): number {
  const j = i + 1;
  if (j >= tokens.length) return -1;
  const g = tokens.gap(j);
  if ((g === Gap.Space || g === Gap.Comma) && j + 1 < tokens.length && tokens.gap(j + 1) === Gap.Space && conjunction(tokens, j)) return j + 1;
  return (g === Gap.Comma || g === Gap.Other) && separated(tokens, i) ? j : -1;
}

/** The word joined to token i from the left, as mateAfter reads it; -1 if none. */
function mateBefore(tokens: Tokens, i: number): number {
  if (i === 0) return -1;
  const g = tokens.gap(i);
  if (i >= 2 && g === Gap.Space && conjunction(tokens, i - 1)) {
    const g1 = tokens.gap(i - 1);
    return g1 === Gap.Space || g1 === Gap.Comma ? i - 2 : -1;
  }
  return (g === Gap.Comma || g === Gap.Other) && separated(tokens, i - 1) ? i - 1 : -1;
}

/** Whether token j, joined to the found name word i, is another person's name (listMates). */
function mate(tokens: Tokens, i: number, j: number, lex: Lexicon): boolean {
  // The word's case first (no lookup): a name's capital, or a lower-case mate only beside a lower-case name ("sanjay or deepa").
  const capital = capitalised(tokens, j);
  if (capital ? !nameCased(tokens, j) : !isLowerAscii(tokens.first(i)) || !isLowerAscii(tokens.first(j)) || tokens.end(j) - tokens.start(j) < 2) return false;
  // The item's other edge: after a separator only a list's joint, a stop or a line's edge; after "and"/"or" also a lower-case word.
  const byWord = Math.abs(j - i) === 2;
  if (j > i) {
    const n = j + 1;
    const gn = n < tokens.length ? tokens.gap(n) : Gap.Newline;
    const edge = gn === Gap.Newline || gn === Gap.Stop || gn === Gap.Comma || mateAfter(tokens, j) >= 0;
    if (!edge && !(byWord && gn === Gap.Space && !capitalised(tokens, n))) return false;
  } else {
    // Before a separator, only a list's middle item ("Thx, Devon", "brb, lena's": a sign-off's or a chat's word, then the name).
    const g = tokens.gap(j);
    const edge = byWord ? g !== Gap.Space || !capitalised(tokens, j - 1) : mateBefore(tokens, j) >= 0;
    if (!edge) return false;
  }
  if (NOT_A_PERSON.has(tokens, j)) return false;
  // A lower-case mate only from the given-name list: any word the lexicon never saw was a name too, and "ask priya or
  // kubectl", "ping priya and eta today" found kubectl and eta (a second reading: 34 false finds in 320 probes).
  if (!capital) return plainGiven(tokens, j, lex);
  // Not any capital the case profile saw seldom (a surname's shape): on the development sets such mates were
  // 1 person word and 1 false ("Summarise the plot of Hamlet and Macbeth").
  if (plainGiven(tokens, j, lex)) return true;
  const code = lexCode(tokens, j, lex);
  return knownName(code) && flagsOf(code) === 0 && !oftenLower(code) && !usuallySentenceStart(code);
}
