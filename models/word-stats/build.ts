/**
 * Computes the unigram self-information table that the `prune` compression rule ranks words by.
 * Run: bun models/word-stats/build.ts   (reads ../shared/data, writes models/word-stats/en-unigram.json)
 *
 * Self-information I(w) = -log2 p(w) over lower-cased words. A frequent word carries little
 * information and is the first a reader can restore; a rare word is never a pruning candidate.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { arenaHard, awesomeChatgptPrompts, generalEnglish, gsm8k, selfInstruct, vicunaBench } from "./corpora";
import type { WordStatsFile } from "../../src/pipeline/compress/word-stats";

const KEEP_WORDS = 6000;
const WORD = /[a-z]+(?:'[a-z]+)?/g;

const texts: string[] = [...generalEnglish(), ...[awesomeChatgptPrompts(), selfInstruct(), arenaHard(), vicunaBench(), gsm8k()].flat().flatMap((p) => p.turns)];

const counts = new Map<string, number>();
let total = 0;
for (const text of texts) {
  for (const word of text.toLowerCase().replaceAll("\u2019", "'").match(WORD) ?? []) {
    counts.set(word, (counts.get(word) ?? 0) + 1);
    total++;
  }
}

const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, KEEP_WORDS);
const bits = (count: number) => Math.round(-Math.log2(count / total) * 100) / 100;
const file: WordStatsFile = {
  description: "Unigram self-information in bits, -log2 p(word), of lower-cased English words",
  sources: [
    "stsbenchmark",
    "semeval-sts",
    "topical-chat",
    "awesome-chatgpt-prompts",
    "self-instruct-user-oriented",
    "arena-hard v2.0",
    "vicuna-bench",
    "gsm8k train",
  ],
  totalWords: total,
  unknownBits: bits(ranked[ranked.length - 1]![1]),
  bits: Object.fromEntries(ranked.map(([word, count]) => [word, bits(count)])),
};
writeFileSync(join(import.meta.dir, "en-unigram.json"), JSON.stringify(file) + "\n");
console.log(`${texts.length} texts, ${total} words, kept ${ranked.length}; unknown words get ${file.unknownBits} bits`);
