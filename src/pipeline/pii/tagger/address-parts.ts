import { capitalised, LABELS, type Lexicon, TokenWordSet, isLowerAscii } from "./features";
import { GIVEN_NAME_WORDS } from "./given-names";
import { rareCapital } from "./plain-names";
import { Gap, spanEnd, tokenFrom, type Tokens } from "./tokens";
import { STREET_WORDS as STREET_NAME_ENDINGS } from "../detectors/street-words";

/**
 * The parts of an address the tagger leaves out or runs past, in the styles of the eighth round's own
 * development set (bench/data/pii-own8-dev.txt, issue 30, eighth round): a unit, floor or building
 * line before the street after a comma or a line break ("Level 9, 120 Collins Street", "Haus 3, Am
 * Kirchberg 11", "Rosebank Farm, Llanfair Road", "Hollybush House\n14 Mill Lane"); a British address
 * ending in its postcode ("The Old Rectory, Church Lane, Little Snoring, Norfolk NR21 0HU", "5 hawthorn
 * way, bristol bs7 8ue"); and the end of an address where a label's line or a person after a
 * lower-case word begins ("..., Rotorua 3010, vendor Aroha Ngata", "\nDriver: Marc-André Tremblay").
 */

const PERSON = LABELS.indexOf("PERSON");
const ADDRESS = LABELS.indexOf("ADDRESS");
const O = 0;

/** Words a unit, floor or building part opens with before its number or letter ("Level 9", "Wohnung 5", "Room 214"). */
const UNIT_WORDS = new TokenWordSet(
  // A Canadian rural route's parts too: "RR 3, Site 12, Comp 8, Olds, AB T4H 1P4".
  "flat unit apartment apt suite shop plot block blk villa lot level floor room building bldg tower wohnung whg haus etage stiege apto piso rr site comp".split(
    " ",
  ),
);
/** Floors written with their number first: "3rd Floor", "5th floor", "2. OG". */
const FLOOR_WORDS = new TokenWordSet(["floor", "fl", "og", "etage"]);
/** What a house's or building's name ends with ("Rosebank Farm", "The Old Rectory", "Sai Krupa Apartments"). */
export const BUILDING_WORDS = new TokenWordSet(
  "house farm cottage cottages rectory vicarage lodge hall manor barn mill grange granary forge croft stables apartments mansions towers chambers villa bungalow".split(
    " ",
  ),
);
/** Small words inside a British place's name ("Stow-on-the-Wold", "Newcastle upon Tyne", "Bishop's Stortford"). */
const PLACE_PARTICLES = new TokenWordSet(["on", "the", "upon", "le", "by", "in", "under", "next", "sea", "s"]);
/** Cues before a person inside what the tagger ran on as an address: "attn. Giulia Ferraro", "c/o". */
const PERSON_CUES = new TokenWordSet(["attn", "attention", "fao"]);

/** Labels of an address's own fields: what follows them is no person ("City: Bucharest"). */
const ADDRESS_FIELDS = new TokenWordSet("city town postcode zip country state county region province district suburb area".split(" "));

/** Whether token k is a cue before a person ("attn", "FAO"): its first letter and length tested before the lookup. */
function cue(tokens: Tokens, k: number): boolean {
  const c = tokens.first(k) | 0x20;
  const n = tokens.end(k) - tokens.start(k);
  return (c === 97 || c === 102) && n >= 3 && n <= 9 && PERSON_CUES.has(tokens, k);
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;

/** A unit's number or letter: up to four ASCII letters and digits, at most one letter unless all digits ("9", "4B", "C", "214"). */
function unitValue(tokens: Tokens, i: number): boolean {
  const n = tokens.end(i) - tokens.start(i);
  if (n > 4) return false;
  let letters = 0;
  for (let k = tokens.start(i); k < tokens.end(i); k++) {
    const c = tokens.source.charCodeAt(k);
    if (!isDigit(c)) letters++;
    if (!(isDigit(c) || isUpper(c) || isLowerAscii(c))) return false;
  }
  return letters <= 1;
}

/** An ordinal: "3rd", "5th", "21st", "2nd". */
const ordinal = (tokens: Tokens, i: number) => /^\d{1,3}(?:st|nd|rd|th)$/i.test(tokens.text(i));

/** A part's opening: a unit word and its value ("Level 9"), a floor ("3rd Floor"); the first of its two tokens, or -1. */
function unitBefore(tokens: Tokens, end: number): number {
  const a = end - 2;
  if (a < 0 || tokens.gap(end - 1) !== Gap.Space) return -1;
  // The shape tests before the word lookups (the lookups for every address run's start were most of this rule's time on pii-dense).
  if (capitalised(tokens, a) && unitValue(tokens, end - 1) && UNIT_WORDS.has(tokens, a)) return a;
  if (isDigit(tokens.first(a)) && ordinal(tokens, a) && FLOOR_WORDS.has(tokens, end - 1)) return a;
  return -1;
}

/** A building's name before `end` on its line: up to four capitalised words ending in a building word; its first token, or -1. */
function buildingBefore(tokens: Tokens, end: number): number {
  const last = end - 1;
  if (last < 0 || !BUILDING_WORDS.has(tokens, last) || !capitalised(tokens, last)) return -1;
  let k = last;
  while (k > 0 && last - k < 3 && tokens.gap(k) === Gap.Space && capitalised(tokens, k - 1)) k--;
  // The name stands alone in its part: a line, a field or a comma's part ("leave at back door, Rosebank Farm").
  const g = tokens.gap(k);
  return g === Gap.Start || g === Gap.Newline || g === Gap.Comma || g === Gap.Other ? k : -1;
}

/** The start of the address run after the one holding token s, or -1. */
function nextRun(labels: Uint8Array, s: number): number {
  let end = s;
  while (end < labels.length && labels[end] === ADDRESS) end++;
  return labels.indexOf(ADDRESS, end);
}

/** Unit, floor and building parts before an address after a comma or a line break join it ("Level 9, 120 Collins Street"). */
function leadingParts(tokens: Tokens, labels: Uint8Array): void {
  // From one address run's start to the next by native searches (a loop over every word cost 1-2% of the pii-dense workload's time).
  for (let s = labels.indexOf(ADDRESS, 1); s > 0; s = nextRun(labels, s)) {
    if (labels[s - 1] === ADDRESS) continue;
    let first = s;
    // A unit word right before a number the tagger took ("Level 12, 88 Phillip Street").
    if (tokens.gap(s) === Gap.Space && s > 0 && unitBefore(tokens, s + 1) === s - 1 && labels[s - 1] !== PERSON) labels[(first = s - 1)] = ADDRESS;
    for (let parts = 0; parts < 3; parts++) {
      const g = tokens.gap(first);
      if (g !== Gap.Comma && g !== Gap.Newline) break;
      const unit = unitBefore(tokens, first);
      const from = unit >= 0 ? unit : buildingBefore(tokens, first);
      if (from < 0 || labels[from] === PERSON) break;
      for (let k = from; k < first; k++) labels[k] = ADDRESS;
      first = from;
    }
  }
}

/**
 * A British or Canadian postcode's second half (" 0HU", " 8ue", " 2M9"): found first, by one native
 * search opening with its digit (the whole shape's search cost 9% of bench/pii-speed.ts's prompts, a
 * space before the digit 0.7% of detectPii's time, the digit first 0.2%), then the first half before it.
 */
const INWARD = /\d[A-Za-z][A-Za-z\d](?![A-Za-z\d])/g;
/** A postcode's first half and the space before its second: "NR21 ", "m5h ". */
const OUTWARD_BEFORE = /(?<![A-Za-z\d])[A-Za-z]{1,2}\d[A-Za-z\d]? $/;
/** The case of a letter: 1 upper, 2 lower, 0 none. */
const caseOf = (c: number) => (isUpper(c) ? 1 : isLowerAscii(c) ? 2 : 0);

/**
 * Whether the outward half at [o, oEnd) and the inward half of three characters at `n` make a postcode in
 * one case: British "NR21 0HU", "EC2A 1AG", Canadian "M5H 2M9". Read by character codes: the version with
 * case folds and regexes was 9% of detectPii's time on "Norfolk NR21 0HU, " repeated over 100 KB.
 */
function postcode(source: string, o: number, oEnd: number, n: number): boolean {
  const letterCase = caseOf(source.charCodeAt(n + 1));
  const letter = (at: number) => caseOf(source.charCodeAt(at)) === letterCase;
  const digit = (at: number) => isDigit(source.charCodeAt(at));
  if (letterCase === 0) return false;
  // Canadian: A9A 9A9.
  if (digit(n + 2)) return oEnd - o === 3 && letter(o) && digit(o + 1) && letter(o + 2);
  if (!letter(n + 2)) return false;
  // British: one or two letters, a digit, then at most a letter or a digit.
  let k = o;
  while (k < oEnd && k - o < 2 && letter(k)) k++;
  if (k === o || k >= oEnd || !digit(k)) return false;
  k++;
  if (k < oEnd && (digit(k) || letter(k))) k++;
  return k === oEnd;
}

/** The token that starts at `at`, or -1. */
function tokenAt(tokens: Tokens, at: number): number {
  const k = tokenFrom(tokens, at);
  return k < tokens.length && tokens.start(k) === at ? k : -1;
}

/** A street's last word (street-words.ts) and the ones British streets add ("Church Close", "Archer Row", "Bath Mews"). */
const STREET_WORDS = new TokenWordSet([
  ...STREET_NAME_ENDINGS,
  ..."close cl crescent cres grove gardens gdns hill row mews walk green rise park parade vale view wynd".split(" "),
]);

/**
 * A British (or Canadian) address that ends in its postcode: back from the postcode over up to five parts (a comma's
 * or a line's), each of capitalised words, numbers and a place's small words ("Stow-on-the-Wold"), to
 * the first word that is none of them, a person's word or a label's colon. In lower case only a street
 * line that opens with its house number, and a town of up to two words before the postcode. Taken only
 * when it holds a house number, a street's or a building's word: "Norfolk NR21 0HU" alone is a county.
 */
function britishLines(tokens: Tokens, labels: Uint8Array): void {
  INWARD.lastIndex = 0;
  let previous = -1;
  for (let m = INWARD.exec(tokens.source); m !== null; m = INWARD.exec(tokens.source)) {
    // The first half before the space, read off the text before the token is looked up: most such matches are ordinals ("the 2nd").
    if (tokens.source.charCodeAt(m.index - 1) !== 32 || !OUTWARD_BEFORE.test(tokens.source.slice(Math.max(0, m.index - 6), m.index))) continue;
    const i = tokenAt(tokens, m.index) - 1;
    if (i < 1 || tokens.gap(i + 1) !== Gap.Space) continue;
    if (!postcode(tokens.source, tokens.start(i), tokens.end(i), m.index)) continue;
    // An address holds one postcode: the walk back stops at the one before, so no word is walked twice (without
    // it, "NR21 0HU " repeated over 100 KB took 0.87 s, four times as long for twice the text; with it 17-25 ms, lead 13).
    const stop = previous;
    previous = i + 1;
    const lower = isLowerAscii(tokens.source.charCodeAt(m.index + 1));
    let from = i;
    let parts = 0;
    // Words of the part being walked: a part longer than an address's is none, and the walk stops there.
    let words = 0;
    // The first token of the earliest part that holds a house number, a street's or a building's word: the address opens there.
    let anchoredFrom = -1;
    let partAnchored = false;
    // Whether a part holds a street's or a building's word or a number before words: a number alone in its part
    // anchors only beside one. Alone it was a row's id in CSV rows of product codes ("12,Blue Mug,LH4 5AB"), in 2 of
    // 2 such prompts written for review8p; so was a street's word inside a product's name ("7,Green Lane Tea,BS7 8UE").
    let firm = false;
    for (let k = i - 1; k > stop; k--) {
      const g = tokens.gap(k + 1);
      if (g === Gap.Comma || g === Gap.Newline) {
        parts++;
        words = 0;
        partAnchored = false;
      } else if (!joined(tokens, k + 1)) break;
      const c = tokens.first(k);
      // A house number comes before its street's words, after a unit's word or alone ("5 Hawthorn Way", "Flat 4B",
      // "2/1, 19 Hyndland Road"), not after another word at the end of its part ("Column 7, Cell B3 4XY").
      const beforeWords = k + 1 < i && tokens.gap(k + 1) === Gap.Space;
      const number = houseNumber(tokens, k) && (beforeWords || !joined(tokens, k) || UNIT_WORDS.has(tokens, k - 1));
      // A street's word after the street's name ("Church Lane"), not one opening its part ("Row 5, Column 7", "Road Map").
      const street = joined(tokens, k) && STREET_WORDS.has(tokens, k);
      const word = isDigit(c) || (lower ? isLowerAscii(c) : capitalised(tokens, k) || PLACE_PARTICLES.has(tokens, k));
      // A word the tagger called a person is a street's only in a part already holding the street's word ("Llanfair Road").
      if (!word || (labels[k] === PERSON && !partAnchored)) break;
      if (parts > 4 || ++words > PART_WORDS || (lower && parts === 0 && i - k > 2)) break;
      from = k;
      const building = BUILDING_WORDS.has(tokens, k);
      if (number || street || building) partAnchored = true;
      // A street's word before more words of its part is a product's name as often ("12,Green Lane Tea,LH4 5AB"), unless
      // the postcode's own part ("5 Hawthorn Way Bristol BS7 8UE").
      const streetEnds = street && (parts === 0 || partEnds(tokens, k + 1) || (DIRECTIONS.has(tokens, k + 1) && partEnds(tokens, k + 2)));
      if ((number && (beforeWords || UNIT_WORDS.has(tokens, k - 1))) || streetEnds || building) firm = true;
      if (partAnchored) anchoredFrom = k;
      // In lower case the street line ends at its house number.
      if (lower && parts > 0 && number) break;
    }
    if (anchoredFrom < 0 || !firm || parts === 0 || (lower && !houseNumber(tokens, from))) continue;
    // The address opens at the start of the anchored part ("The Old Rectory", not the name on the line before "Hollybush House").
    for (let k = anchoredFrom; k <= i + 1; k++) labels[k] = ADDRESS;
  }
}

/** A street's direction after its word ("1204-55 Bloor St W, Toronto"). */
const DIRECTIONS = new TokenWordSet("n s e w ne nw se sw north south east west".split(" "));
/** Whether a part ends before token k: a comma or a line break comes first. */
const partEnds = (tokens: Tokens, k: number) => k < tokens.length && (tokens.gap(k) === Gap.Comma || tokens.gap(k) === Gap.Newline);

/** Whether token k follows the one before inside a part: after a space or a hyphen ("Stow-on-the-Wold"). */
const joined = (tokens: Tokens, k: number) => tokens.gap(k) === Gap.Space || (tokens.gap(k) === Gap.Other && tokens.before(k) === 45);
/**
 * A house number: digits and at most one letter after them ("5", "12a", "221B"), not another postcode's
 * second half ("bs7 8ue, ls6 3ab, nr21 0hu": a list of postcodes is no address).
 */
const houseNumber = (tokens: Tokens, k: number) => isDigit(tokens.first(k)) && /^\d{1,5}[A-Za-z]?$/.test(tokens.text(k));
/**
 * Words one part of an address holds at most ("Flat 4B Rosebank House 14 Mill Lane" has seven): a longer
 * run of capitalised words without a comma is a title or a list, and the address took all of it, up to
 * the text's start. No address of the development sets (own8, outside, newstyle 1-6) changed with the bound.
 */
const PART_WORDS = 8;

/**
 * A person the tagger found right before a street's word inside an address is the street's name
 * ("Plot 45, Haile Selassie Road, Oyster Bay", "7 Archer Row"): after a house number, or where the
 * address goes on after the street's word. Not "Diane Lane, 42": no address follows.
 */
function streetsNamedForPeople(tokens: Tokens, labels: Uint8Array): void {
  for (let a = labels.indexOf(PERSON); a >= 0; a = labels.indexOf(PERSON, a + 1)) {
    const b = spanEnd(tokens, labels, a);
    const s = b + 1;
    if (s < tokens.length && tokens.gap(s) === Gap.Space && capitalised(tokens, s) && STREET_WORDS.has(tokens, s)) {
      const numbered = a > 0 && tokens.gap(a) === Gap.Space && isDigit(tokens.first(a - 1)) && tokens.end(a - 1) - tokens.start(a - 1) <= 5;
      const goesOn = labels[s] === ADDRESS || (s + 1 < tokens.length && labels[s + 1] === ADDRESS);
      if (numbered || goesOn) for (let k = numbered ? a - 1 : a; k <= s; k++) labels[k] = ADDRESS;
    }
    a = b;
  }
}

/**
 * An address run ends where a label's line begins ("\nDriver: Marc-André Tremblay") or where a
 * lower-case word after a comma or a cue before a person ("attn.") comes before capitalised words
 * ("Rotorua 3010, vendor Aroha Ngata"); those capitalised words (up to three) are the person.
 */
function runOns(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  const source = tokens.source;
  for (let k = labels.indexOf(ADDRESS, 2); k >= 0 && k + 1 < tokens.length; k = labels.indexOf(ADDRESS, k + 1)) {
    const g = tokens.gap(k);
    // Every case below but a cue opens a line, a label's value or a comma's part: most words of an address follow a space.
    if (g === Gap.Space && !cue(tokens, k)) continue;
    let label = -1;
    let names = -1;
    if (labels[k - 1] === ADDRESS && g === Gap.Newline && source.charCodeAt(tokens.end(k)) === 58 && !isDigit(tokens.first(k))) [label, names] = [k, k + 1];
    else if (
      labels[k - 2] === ADDRESS &&
      g === Gap.Other &&
      tokens.gap(k - 1) === Gap.Newline &&
      source.charCodeAt(tokens.end(k - 1)) === 58 &&
      !isDigit(tokens.first(k))
    )
      [label, names] = [k - 1, k];
    else if (labels[k - 1] === ADDRESS && cue(tokens, k)) [label, names] = [k, k + 1];
    else if (
      labels[k - 1] === ADDRESS &&
      g === Gap.Comma &&
      isLowerAscii(tokens.first(k)) &&
      tokens.end(k) - tokens.start(k) >= 4 &&
      capitalised(tokens, k + 1) &&
      tokens.gap(k + 1) === Gap.Space
    )
      [label, names] = [k, k + 1];
    // A field of the address itself ("\nPostcode: 030031", "\nCity: Leeds") goes on with it.
    if (label < 0 || ADDRESS_FIELDS.has(tokens, label)) continue;
    let j = k;
    while (j < tokens.length && labels[j] === ADDRESS) labels[j++] = O;
    // A person only when the first word is a given name or a surname's shape.
    if (names < j && capitalised(tokens, names) && (GIVEN_NAME_WORDS.has(tokens, names) || rareCapital(tokens, names, lex)))
      for (let n = names; n < j && n < names + 3 && /^\p{Lu}\p{Ll}/u.test(tokens.text(n)); n++) labels[n] = PERSON;
    k = j;
  }
}

/** The rules above, after the tagger's own address completion (tagger.ts: completeAddresses). */
export function addressParts(tokens: Tokens, labels: Uint8Array, lex: Lexicon): void {
  britishLines(tokens, labels);
  if (labels.indexOf(ADDRESS) < 0) return;
  streetsNamedForPeople(tokens, labels);
  runOns(tokens, labels, lex);
  leadingParts(tokens, labels);
}
