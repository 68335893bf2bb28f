import { contentStem } from "../../src/pipeline/cache/facets";
import type { Rng } from "../../models/data/rng";
import type { Synset, WordNet } from "./wordnet";

/** Relations between words that are not synonymy: each changes what a prompt asks ("dog" -> "cat", "animal", "puppy"; "hot" -> "cold"). */
export type NonSynonymy = "antonym" | "sister term" | "hypernym" | "hyponym";

/** A word's most tagged sense, all parts of speech together (its first one when SemCor never tagged it): what it most likely means in a prompt. */
export function dominantSynset(wordnet: WordNet, lemma: string): Synset | undefined {
  const senses = wordnet.senses.get(lemma);
  if (!senses || senses.length === 0) return undefined;
  let best = senses[0]!;
  for (const s of senses) if (s.tagCount > best.tagCount) best = s;
  return wordnet.synsets.get(best.synset);
}

const HYPERNYM = new Set(["@", "@i"]);
const HYPONYM = new Set(["~", "~i"]);

function linked(wordnet: WordNet, synset: Synset, symbols: ReadonlySet<string>): Synset[] {
  return synset.pointers.filter((p) => symbols.has(p.symbol)).map((p) => wordnet.synsets.get(p.target)!);
}

/**
 * Single lower-case content words that stand in `relation` to `lemma`'s dominant sense. Left out, by
 * stem as the cache compares words: the words of that sense ("slew" is a sister term of "dozens" and
 * "slews" its synonym), and words whose own dominant sense is one of `lemma`'s ("picture" is a
 * hyponym of the mental "image" but mostly means the other image; "battle" a hypernym of
 * "fighting" but mostly a "fight"), for which the swap need not change the meaning. Antonyms are
 * WordNet's direct ones, between the two words themselves.
 */
export function relatedWords(wordnet: WordNet, lemma: string, relation: NonSynonymy): string[] {
  const synset = dominantSynset(wordnet, lemma);
  if (!synset) return [];
  let words: string[];
  if (relation === "antonym") words = synset.lexical.filter((p) => p.symbol === "!" && p.from === lemma).map((p) => p.to);
  else {
    const targets =
      relation === "hypernym"
        ? linked(wordnet, synset, HYPERNYM)
        : relation === "hyponym"
          ? linked(wordnet, synset, HYPONYM)
          : linked(wordnet, synset, HYPERNYM).flatMap((parent) => linked(wordnet, parent, HYPONYM).filter((s) => s !== synset));
    words = targets.flatMap((s) => s.spellings);
  }
  const stem = contentStem(lemma);
  const own = new Set([stem, ...synset.lemmas.map(contentStem)]);
  const meansLemma = (w: string) => dominantSynset(wordnet, w)?.lemmas.some((l) => contentStem(l) === stem) ?? false;
  return [...new Set(words)].filter((w) => /^[a-z]{3,}$/.test(w) && contentStem(w) !== undefined && !own.has(contentStem(w)) && !meansLemma(w));
}

/**
 * A content word of a real prompt (as written, uninflected, not in `stop`) replaced by one in `relation` to it: a
 * near miss the cache must refuse (bench/cache-eval.ts's WordNet swaps, models/cache-judge/train.ts's negatives).
 */
export function wordnetSwap(text: string, relation: NonSynonymy, wordnet: WordNet, rng: Rng, stop: ReadonlySet<string>): string | null {
  const words = [...text.matchAll(/(?<![\w'-])[a-z]{3,}(?![\w'-])/g)].filter((m) => !stop.has(m[0]) && contentStem(m[0]) !== undefined);
  for (const m of rng.shuffle(words)) {
    const options = relatedWords(wordnet, m[0], relation);
    if (options.length === 0) continue;
    return text.slice(0, m.index) + options[rng.int(options.length)]! + text.slice(m.index! + m[0].length);
  }
  return null;
}
