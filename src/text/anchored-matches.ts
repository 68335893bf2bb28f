import { FoldedWordTable } from "./word-table";

/**
 * A global pattern and the places its matches can open: the start of a word that is one of `words`
 * (any case) or that `opensWord` accepts, or any unit of `units`. A word here is a run of ASCII
 * letters with no letter, digit or "_" before it: where `\b` sees a word open in a pattern without the
 * u and i flags together (with both, "ſ" and the Kelvin sign count as word characters).
 */
export interface AnchoredPattern {
  pattern: RegExp;
  /** Lower-case ASCII words. */
  words: readonly string[];
  /** For openings no list can hold, such as `[a-z]+n't`: called with each word's [start, end). */
  opensWord?: (text: string, start: number, end: number) => boolean;
  /** Characters outside words (digits, signs) at which a match can open as well. */
  units?: string;
}

const isAsciiLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
/** What may stand right before a word without `\b` between them: an ASCII digit or "_" (letters join the run). */
const joinsWord = (code: number) => (code >= 0x30 && code <= 0x39) || code === 0x5f;

/**
 * The matches of patterns that can open only at a few words, found by one scan of the text that looks
 * each word up once and runs a pattern (sticky) only where one of its words or units starts. The regex
 * engine tries a pattern at every position instead, and JavaScriptCore takes 4-7 ns a character for
 * each word list written as an alternation: numbers, dates, negations and constraints took 80 ms over
 * the 967 prompts of 200+ tokens, this scan 29 ms (same matches). The matches are those of a global
 * exec loop from the text's start: every place a match can open is tried in order, and each pattern
 * carries on after its own last match.
 */
export class AnchoredMatches {
  private readonly sticky: RegExp[];
  /** Bit k set: pattern k can open at the word. */
  private readonly byWord: FoldedWordTable<number>;
  private readonly asciiUnits = new Uint32Array(128);
  private readonly otherUnits = new Map<number, number>();
  private readonly wordTests: { bit: number; opensWord: NonNullable<AnchoredPattern["opensWord"]> }[] = [];
  /** Where each pattern's search resumes: after its last match. Scratch for `each`. */
  private readonly resume: number[];

  constructor(patterns: readonly AnchoredPattern[]) {
    if (patterns.length > 31) throw new Error("AnchoredMatches: at most 31 patterns");
    const masks = new Map<string, number>();
    this.sticky = patterns.map(({ pattern, words, opensWord, units }, k) => {
      if (!pattern.global) throw new TypeError(`AnchoredMatches needs a global pattern: ${pattern}`);
      if ((pattern.unicode || pattern.unicodeSets) && pattern.ignoreCase)
        throw new TypeError(`AnchoredMatches reads words as \\b does without the u (or v) and i flags together: ${pattern}`);
      for (const word of words) masks.set(word, (masks.get(word) ?? 0) | (1 << k));
      if (opensWord) this.wordTests.push({ bit: 1 << k, opensWord });
      for (const unit of units ?? "") {
        const code = unit.charCodeAt(0);
        if (unit.length !== 1 || isAsciiLetter(code)) throw new Error(`AnchoredMatches: a unit is one character outside words, got "${unit}"`);
        if (code < 128) this.asciiUnits[code] = this.asciiUnits[code]! | (1 << k);
        else this.otherUnits.set(code, (this.otherUnits.get(code) ?? 0) | (1 << k));
      }
      return new RegExp(pattern.source, pattern.flags.replace("g", "y"));
    });
    this.byWord = new FoldedWordTable(masks);
    this.resume = patterns.map(() => 0);
  }

  /**
   * Calls `visit(k, match)` for each match of pattern k in `text`; each pattern's matches come in order.
   * `visit` must not scan with the same instance: the scan's state is the instance's.
   */
  each(text: string, visit: (pattern: number, match: RegExpExecArray) => void): void {
    this.resume.fill(0);
    const n = text.length;
    let afterWordUnit = false;
    for (let i = 0; i < n; ) {
      const code = text.charCodeAt(i);
      if (isAsciiLetter(code)) {
        let end = i + 1;
        while (end < n && isAsciiLetter(text.charCodeAt(end))) end++;
        if (!afterWordUnit) {
          const entry = this.byWord.find(text, i, end);
          let mask = entry === -1 ? 0 : this.byWord.value(entry);
          for (const { bit, opensWord } of this.wordTests) if ((mask & bit) === 0 && opensWord(text, i, end)) mask |= bit;
          this.tryAt(text, i, mask, visit);
        }
        afterWordUnit = true;
        i = end;
        continue;
      }
      const mask = code < 128 ? this.asciiUnits[code]! : this.otherUnits.size === 0 ? 0 : (this.otherUnits.get(code) ?? 0);
      if (mask !== 0) this.tryAt(text, i, mask, visit);
      afterWordUnit = joinsWord(code);
      i++;
    }
  }

  /** Runs each pattern of `mask` at `at`, unless its last match reaches past `at`. */
  private tryAt(text: string, at: number, mask: number, visit: (pattern: number, match: RegExpExecArray) => void): void {
    for (let k = 0; mask !== 0; k++, mask >>>= 1) {
      if ((mask & 1) === 0 || at < this.resume[k]!) continue;
      const sticky = this.sticky[k]!;
      sticky.lastIndex = at;
      const match = sticky.exec(text);
      if (match === null) continue;
      this.resume[k] = at + Math.max(1, match[0].length);
      visit(k, match);
    }
  }
}
