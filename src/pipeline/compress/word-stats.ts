import table from "../../../models/word-stats/en-unigram.json";
import { FoldedWordTable } from "../../text/word-table";

/** Shape of models/word-stats/en-unigram.json, written by models/word-stats/build.ts. */
export interface WordStatsFile {
  description: string;
  sources: string[];
  totalWords: number;
  /** Bits given to any word outside the table: at least as informative as the rarest kept word. */
  unknownBits: number;
  bits: Record<string, number>;
}

const stats = table as WordStatsFile;
/** The words and their bits, found by string or where they lie in a text (build.ts counts lower-case ASCII words only). */
const vocabulary = new FoldedWordTable(Object.entries(stats.bits));

/** Self-information of a lower-cased word in bits; words we never counted are treated as rare. */
export function selfInformation(lowerWord: string): number {
  const entry = vocabulary.entryOf(lowerWord);
  return entry === -1 ? stats.unknownBits : vocabulary.value(entry);
}

/**
 * True when text[start, end), lower-cased and with ’ read as ' (how users type "don’t"), is among the
 * counted vocabulary (an ordinary English word).
 */
export function isKnownWordAt(text: string, start: number, end: number): boolean {
  return vocabulary.find(text, start, end) !== -1;
}
