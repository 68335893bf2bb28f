import {
  capitalised,
  commonWord,
  firstLetters,
  flagsOf,
  hasLetter,
  knownName,
  LABELS,
  lexCode,
  type Lexicon,
  oftenLower,
  usuallyLower,
  usuallySentenceStart,
} from "./features";
import { GIVEN_NAME_WORDS, LISTED_GIVEN_NAME_WORDS } from "./given-names";
import { eachLine } from "../../../text/each-line";
import { PLACE_WORDS } from "./places";
import { NAME_PARTICLES, TITLES } from "./titles";
import { Gap, isInitial, tokenFrom, type Tokens } from "./tokens";

/**
 * Names as records write them, which the tagger, trained on prose, leaves out (issue 30, sixth round:
 * the sixth new-style development set, bench/data/pii-newstyle-dev6.txt): an airline record's
 * "SURNAME/GIVEN MR", a roster's or clinic's "Surname, Given", and the name beside an e-mail address
 * that spells it ("Joy Ekwueme (joy.e@example.com)", "Reply-To: Hollis Quarterman <hq@...>").
 */

const PERSON = LABELS.indexOf("PERSON");
const ADDRESS = LABELS.indexOf("ADDRESS");
const O = 0;

function labelRange(tokens: Tokens, labels: Uint8Array, from: number, to: number): void {
  for (let i = tokenFrom(tokens, from); i < tokens.length && tokens.start(i) < to; i++) labels[i] = PERSON;
}

/**
 * "NAKAMURA/KENJI MR", "O'BRIEN/SEAN MR", "MÜLLER/JÖRG MRS  SEAT 2C": a passenger's name as airlines and
 * hotels write it, known by the title after it, which ends the field (the line, a comma, two spaces, a
 * seat's or passenger's number). A title before a word is an acronym: "AWS/AZURE DR strategy", "HTN/DM
 * CHD risk", "FLOAT/DOUBLE INF values" (review7 of the sixth round).
 */
const SLASH_NAME =
  /(?<![\p{L}\d/])\p{Lu}(?:\p{Lu}|['-]\p{Lu})+(?: \p{Lu}{2,})?\/\p{Lu}{2,}(?: \p{Lu}{2,})?(?= +(?:MR|MRS|MS|MISS|MSTR|DR|CHD|INF)(?:$|[\r\n,;\t]| {2}| \d))/uy;

const UPPER = /\p{Lu}/u;
/** A capital letter, also one outside ASCII ("Ü", "Ø"). */
const isCapital = (c: number) => (c >= 65 && c <= 90) || (c >= 192 && UPPER.test(String.fromCharCode(c)));

function slashNames(tokens: Tokens, labels: Uint8Array): void {
  const source = tokens.source;
  // Each "/" between two capitals (indexOf), the pattern tried from the start of the capitals before it:
  // run over the whole text of every prompt with "I/O" or "A/B" in it, it cost 2% of bench/pii-speed.ts's prompts time.
  for (let at = source.indexOf("/"); at > 0; at = source.indexOf("/", at + 1)) {
    if (!(isCapital(source.charCodeAt(at - 1)) && isCapital(source.charCodeAt(at + 1)))) continue;
    let from = at - 1;
    while (from > 0 && at - from < 40 && (isCapital(source.charCodeAt(from - 1)) || " '-".includes(source[from - 1]!))) from--;
    // The leftmost word start from which the pattern reaches past this "/".
    for (let k = from; k < at; k++) {
      if (!isCapital(source.charCodeAt(k)) || (k > 0 && isCapital(source.charCodeAt(k - 1)))) continue;
      SLASH_NAME.lastIndex = k;
      const m = SLASH_NAME.exec(source);
      if (m !== null && k + m[0].length > at) {
        labelRange(tokens, labels, k, k + m[0].length);
        break;
      }
    }
  }
}

/** Whether token i, capitalised, may be a surname or given name of a record: no English word a sentence or text writes, no place or company. */
function recordWord(tokens: Tokens, i: number, lex: Lexicon): boolean {
  if (!capitalised(tokens, i) || PLACE_WORDS.has(tokens, i)) return false;
  const code = lexCode(tokens, i, lex);
  return flagsOf(code) === 0 && (knownName(code) || GIVEN_NAME_WORDS.has(tokens, i) || !(usuallyLower(code) || usuallySentenceStart(code)));
}

/** What a record's field may open after: the text's or a line's start, a label's colon, a list's ";" or a cell's "|" or ">". */
function opensField(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  let k = tokens.start(i) - 1;
  while (k >= 0 && (source[k] === " " || source[k] === "\t")) k--;
  return k < 0 || ":;|>\n".includes(source[k]!);
}

/** What ends a record's field: the text's or line's end, ";", "(", "|", "<", a tab or two spaces, or " - ". */
function endsField(tokens: Tokens, i: number): boolean {
  const source = tokens.source;
  const end = tokens.end(i);
  if (end >= source.length) return true;
  const c = source[end]!;
  if ("\n;(|<\t".includes(c)) return true;
  if (c !== " ") return false;
  const next = source[end + 1];
  return next === undefined || next === " " || "\n;(|<-–—".includes(next);
}

/** A given name as Korean and Chinese names are romanised: two syllables joined by a hyphen, the second in lower case. */
const ROMANISED_GIVEN = /^\p{Lu}\p{Ll}{1,4}-\p{Ll}{2,5}$/u;

/**
 * "Castellanos, Rafael (DOB ...)", "Roster: Abernathy, Cole; Birungi, Esther", "MCALLISTER, DONALD J.":
 * a surname of up to three words opening a field, a comma, and a given name (one the lists know, one
 * the tagger took, or a name-like word after a surname it took) that ends the field, with its initial. Not a place ("Lyon, France;") nor an English
 * word ("Summary, Notes").
 */
function commaNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  // Comma by comma (indexOf), not token by token: most tokens follow none.
  for (let at = source.indexOf(","); at > 0; at = source.indexOf(",", at + 1)) {
    // A capital after the comma and its space, read before any token is looked up.
    let next = at + 1;
    while (source.charCodeAt(next) === 32) next++;
    const c = source.charCodeAt(next);
    if (!((c >= 65 && c <= 90) || c >= 192)) continue;
    const g = tokenFrom(tokens, at);
    // The cheap tests first: the surname right before the comma, a capital after it, the field's end.
    if (g === 0 || g >= tokens.length || tokens.end(g - 1) !== at || tokens.gap(g) !== Gap.Comma || !capitalised(tokens, g)) continue;
    let last = g;
    if (!endsField(tokens, g)) {
      if (!(g + 1 < tokens.length && tokens.gap(g + 1) === Gap.Space)) continue;
      last = g + 1;
      // An initial, or a second given name that ends the field ("Nguyen, Van An |", "Ramírez de los Santos, María Fernanda signed").
      if (isInitial(tokens, last)) {
        if (!endsField(tokens, last) && source.charCodeAt(tokens.end(last)) !== 46) continue;
      } else if (
        !(
          (labels[last] === PERSON || endsField(tokens, last)) &&
          (labels[g] === PERSON || LISTED_GIVEN_NAME_WORDS.has(tokens, g)) &&
          recordWord(tokens, last, lex)
        )
      )
        continue;
    }
    // The surname's words: capitalised, or the particles between them ("Ramírez de los Santos").
    let first = g - 1;
    while (
      first > 0 &&
      g - first < 5 &&
      tokens.gap(first) === Gap.Space &&
      (capitalised(tokens, first - 1) || (first - 1 > 0 && NAME_PARTICLES.has(tokens, first - 1)))
    )
      first--;
    if (!capitalised(tokens, first)) continue;
    if (!opensField(tokens, first)) continue;
    // A given name the lists know, or a name-like word after a surname the tagger took ("Oduya, Felix").
    // A romanised Korean or Chinese given name ("Ji-hoon", "Seo-yeon") names its surname, even one that is an English word ("Park").
    const romanised = ROMANISED_GIVEN.test(source.slice(tokens.start(g), tokens.end(g)));
    const given =
      romanised ||
      labels[g] === PERSON ||
      GIVEN_NAME_WORDS.has(tokens, g) ||
      knownName(lexCode(tokens, g, lex)) ||
      (labels[g - 1] === PERSON && recordWord(tokens, g, lex));
    if (!given || PLACE_WORDS.has(tokens, g)) continue;
    // A surname the tagger did not take must be no word English writes often ("Python, Ruby", "Amazon,
    // Alexa", "Cheers, Mark", "Colors: Olive, Amber"), and before a given name that is a word ("Grace",
    // "Will") the tagger must have taken it: "Sincerely, Grace" is a sign-off (review7 of the sixth round).
    const surnameCode = lexCode(tokens, g - 1, lex);
    let surname =
      labels[g - 1] === PERSON ||
      (romanised && !PLACE_WORDS.has(tokens, g - 1) && flagsOf(surnameCode) === 0) ||
      // A surname with particles inside, opening on a record's word ("Ramírez de los Santos"; "Santos" opens sentences too often for recordWord).
      (first < g - 2 && NAME_PARTICLES.has(tokens, g - 2) && recordWord(tokens, first, lex)) ||
      (recordWord(tokens, g - 1, lex) && !commonWord(surnameCode) && !(oftenLower(lexCode(tokens, g, lex)) && !GIVEN_NAME_WORDS.has(tokens, g - 1)));
    for (let k = first; k < g - 1 && surname; k++) surname = capitalised(tokens, k) || NAME_PARTICLES.has(tokens, k);
    if (surname) for (let k = first; k <= last; k++) labels[k] = PERSON;
  }
}

/** A character of an e-mail address's local part. */
const LOCAL = /[\p{L}\d._%+-]/u;

/**
 * Up to three capitalised words right before an e-mail address (after a space, "<", "(", a quote, "|"
 * or a line break) are a name when the address spells one of them or their initials ("Signe Rasmussen
 * <signe@...>", "Priyanka Venkataraman" <pv@...>"). One word alone only if it is a given name ("Annika
 * <annika@...>", not "Support <support@...>").
 */
function emailNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  // From each "@" back over the local part (a regex for the whole address tried at every word cost more).
  for (let at = source.indexOf("@"); at > 0; at = source.indexOf("@", at + 1)) {
    let from = at;
    while (from > 0 && LOCAL.test(source[from - 1]!)) from--;
    if (from === at || !/^[\p{L}\d-]+\.\p{L}/u.test(source.slice(at + 1, at + 64))) continue;
    const local = source.slice(from, at).toLowerCase();
    let k = from - 1;
    while (k >= 0 && from - k <= 4 && ` \t\n<("'|“`.includes(source[k]!)) k--;
    const j = tokenFrom(tokens, k + 1) - 1;
    if (j < 0 || tokens.end(j) !== k + 1) continue;
    let first = j;
    while (first > 0 && j - first < 2 && tokens.gap(first) === Gap.Space && recordWord(tokens, first - 1, lex) && !TITLES.has(tokens, first - 1)) first--;
    if (!recordWord(tokens, j, lex)) continue;
    const words: string[] = [];
    for (let i = first; i <= j; i++) words.push(tokens.lower(i));
    // The address spells the words' initials ("jrm@..." for "J. R. Mwansa"), read once for both tests below.
    const initials = words.length > 1 && local.replace(/[^a-z]/g, "") === words.map((w) => w[0]).join("");
    const spelled = initials || words.some((w) => w.length >= 3 && local.includes(w));
    // One word, or two or three none of which is a given name, only if it is a given name or the address
    // spells them all: "Github Copilot <copilot@github.com>" is a product (review7 of the sixth round).
    let givenName = false;
    for (let i = first; i <= j && !givenName; i++) givenName = GIVEN_NAME_WORDS.has(tokens, i);
    const spelledAll = initials || (words.length > 1 && words.every((w) => local.includes(w)));
    if (!spelled || !(givenName || spelledAll)) continue;
    for (let i = first; i <= j; i++) labels[i] = PERSON;
  }
}

/** The labels of a shipping label, a call log or a vCard whose value is a person: "SHIP TO:", "CALLER:", "Care of", "c/o", "Attn:", "FN:". */
const NAME_LABEL = /(?:ship to|bill to|sold to|deliver to|caller|attn|attention(?=[ \t]*:)|c\/o|care of|fn(?=:))\b[ \t]*:?[ \t]*\n?[ \t]*/iy;
/** The labels' first two letters, lower-cased, as two character codes (first << 8 | second). */
const LABEL_PREFIXES = ["sh", "bi", "so", "de", "ca", "at", "c/", "fn"];
const LABEL_STARTS = new Set(LABEL_PREFIXES.map((s) => (s.charCodeAt(0) << 8) | s.charCodeAt(1)));
/** Their first letters, one bit a letter (a = bit 0): most lines are told by one test, without a set lookup. */
const LABEL_FIRST = firstLetters(LABEL_PREFIXES);
/** An ASCII letter's code lower-cased; any other code as it is (no label starts with one). */
const lowerAscii = (c: number) => (c >= 65 && c <= 90 ? c | 0x20 : c);
const isUpper = (c: number) => (c >= 65 && c <= 90) || c === 39 || c === 45;
/** A word after such a label, unless English writes it in lower case or it is a place's or company's. */
function lexiconName(tokens: Tokens, i: number, lex: Lexicon): boolean {
  const code = lexCode(tokens, i, lex);
  return !PLACE_WORDS.has(tokens, i) && !usuallyLower(code) && flagsOf(code) === 0;
}
/** A capitalised word after such a label that may be a name. */
const labelWord = (tokens: Tokens, i: number, lex: Lexicon) => capitalised(tokens, i) && lexiconName(tokens, i, lex);

/**
 * The name that opens a shipping label's or a call log's value: "SHIP TO: RAYMOND TULL\n2201 COUNTY ROAD
 * 40", "CALLER: GLORIA MENDES  CALLBACK: NO", "c/o Linnea Aaltonen, 88 Harbour Road". Two or three words,
 * all capitals or each capitalised and name-like, ending the line, a comma or a double space. The tagger
 * read the capitals as an address or nothing (the sixth new-style development set).
 */
function labelledNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  // Line by line (indexOf), the label tried only at a line's start: the pattern run over the whole text
  // cost 4% of bench/pii-speed.ts's prompts time.
  eachLine(source, (line) => {
    let at = line;
    while (source.charCodeAt(at) === 32 || source.charCodeAt(at) === 9) at++;
    // Two character codes, not a lower-cased slice: a string made for every line of every text.
    const letter = lowerAscii(source.charCodeAt(at));
    if (!hasLetter(LABEL_FIRST, letter)) return;
    if (!LABEL_STARTS.has((letter << 8) | lowerAscii(source.charCodeAt(at + 1)))) return;
    NAME_LABEL.lastIndex = at;
    const m = NAME_LABEL.exec(source);
    if (m === null) return;
    const first = tokenFrom(tokens, m.index + m[0].length);
    if (first >= tokens.length || tokens.start(first) !== m.index + m[0].length) return;
    let last = first;
    while (last + 1 < tokens.length && last - first < 2 && tokens.gap(last + 1) === Gap.Space && source[tokens.start(last + 1) - 2] !== " ") last++;
    if (last === first || (!endsField(tokens, last) && source[tokens.end(last)] !== ",")) return;
    let capitals = true;
    for (let k = first; k <= last && capitals; k++) for (let c = tokens.start(k); c < tokens.end(k) && capitals; c++) capitals = isUpper(source.charCodeAt(c));
    let names = true;
    for (let k = first; k <= last && names; k++)
      // After such a label a word is a name unless English writes it in lower case ("Henri", which the case
      // profile saw mostly opening sentences, is one), in capitals too: "SAME AS BILLING", "FRONT DESK",
      // "ACME CORP" are no names (review7 of the sixth round).
      names = !TITLES.has(tokens, k) && (capitals ? tokens.end(k) - tokens.start(k) > 1 && lexiconName(tokens, k, lex) : labelWord(tokens, k, lex));
    if (names) for (let k = first; k <= last; k++) labels[k] = PERSON;
  });
}

/** Record-style names (slashNames, commaNames, emailNames, labelledNames), after the tagger and its completion rules. */
export function recordNames(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  slashNames(tokens, labels);
  commaNames(tokens, labels, lex);
  emailNames(tokens, labels, lex);
  labelledNames(tokens, labels, lex);
}

/**
 * A word opening a line before a colon and an address is the address's label, no person:
 * "Versandadresse: Ahornweg 12b", "Morada: Rua do Ouro 120", "Consegna: Corso Buenos Aires 33" (the
 * tagger took such labels of other languages for names on the sixth new-style development set).
 */
export function addressLabels(tokens: Tokens, labels: Uint8Array): void {
  const source = tokens.source;
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (labels[i] !== PERSON || labels[i + 1] !== ADDRESS) continue;
    const g = tokens.gap(i);
    if ((g === Gap.Start || g === Gap.Newline) && source.charCodeAt(tokens.end(i)) === 58) labels[i] = O;
  }
}
