/**
 * Where the semantic cache loses recall: for every pair that should be served and is not, whether
 * the embedding lost it (cosine below the threshold, or the right entry not among the `candidates`
 * nearest) or the verifier refused it, and with which checks.
 *
 *   bun bench/cache-misses.ts [--faq FILE]... [--pairs FILE]... [--show KIND]
 *
 * Natural paraphrases: SemEval 2016 pairs scored >= 4.8 (as bench/cache-eval.ts counts them). FAQ:
 * every ordered pair of two wordings of one intent in bench/data/faq-*.json (and --faq files); the
 * neighbours a query sees are all the corpus's other questions, the most a replay ever holds, so
 * "not among the nearest" is an upper bound. `--pairs` files are {"pairs":[{"a","b","same"}]}.
 * For each refused pair: the first failing check (what the cache counts in `refused`) and whether it
 * is the only one (fixing that check alone would serve the pair); then, per check, the pairs it refuses
 * wherever it comes, lost neighbours included.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadSemEval } from "../models/data/sts";
import { DEFAULT_CACHE_CONFIG, embeddingText, extractFacets, wordsToEmbed } from "../src/pipeline/cache";
import { SHIPPED_SYNONYMS } from "../src/pipeline/cache/request-synonyms";
import { allMismatches } from "../src/pipeline/cache/verify";
import { loadModels } from "../src/pipeline/models";
import type { FaqCorpus } from "./lib/faq-replay";
import { dot, memoEmbed } from "./lib/vectors";

const { values: args } = parseArgs({
  options: {
    faq: { type: "string", multiple: true, default: [] },
    pairs: { type: "string", multiple: true, default: [] },
    show: { type: "string" },
  },
});

const models = await loadModels();
const config = DEFAULT_CACHE_CONFIG;
const vec = memoEmbed((text) => models.embed(text));

interface Pair {
  a: string;
  b: string;
  /** The other texts a lookup of `a` could find instead of `b` (FAQ: the corpus's other questions). */
  rivals?: readonly string[];
}

/** The cause of one pair's miss ("" when the cache would serve it) and every check that fails. */
async function cause(p: Pair): Promise<{ first: string; all: string[]; kinds: string[] }> {
  const [va, vb] = [await vec(embeddingText(p.a)), await vec(embeddingText(p.b))];
  const cosine = dot(va, vb);
  let lost: string | undefined;
  if (cosine < config.similarityThreshold) lost = "embedding: below threshold";
  else if (p.rivals) {
    let closer = 0;
    for (const r of p.rivals) if (r !== p.a && r !== p.b && dot(va, await vec(embeddingText(r))) > cosine) closer++;
    if (closer >= config.candidates) lost = "embedding: not among the nearest";
  }
  const verified = await verifierCause(p);
  if (lost === undefined) return verified;
  // Whether a better neighbour search alone would serve the pair.
  const then = verified.first === "" ? "the verifier would serve it" : `the verifier would refuse it too (${verified.first})`;
  return { first: `${lost}; ${then}`, all: [lost], kinds: verified.kinds };
}

async function verifierCause(p: Pair): Promise<{ first: string; all: string[]; kinds: string[] }> {
  const fa = extractFacets(p.a);
  const fb = extractFacets(p.b);
  const vectors = new Map<string, Float32Array>();
  for (const w of wordsToEmbed(fa, fb)) vectors.set(w, await vec(w));
  const found = allMismatches(fa, fb, { vectors, minSimilarity: config.minWordSimilarity, synonyms: SHIPPED_SYNONYMS });
  const kinds = [...new Set(found.map((m) => m.kind))];
  return { first: kinds[0] ?? "", all: found.map((m) => `${m.kind}: ${m.detail}`), kinds };
}

async function report(name: string, pairs: Pair[]): Promise<void> {
  const first = new Map<string, number>();
  const only = new Map<string, number>();
  let served = 0;
  // Every check that refuses, wherever it comes, also behind a lost neighbour: what a relaxation of that
  // check alone could not serve (the first-failure table hides the checks behind the first).
  const refusing = new Map<string, number>();
  const shown: string[] = [];
  for (const p of pairs) {
    const c = await cause(p);
    for (const k of c.kinds) refusing.set(k, (refusing.get(k) ?? 0) + 1);
    if (c.first === "") {
      served++;
      continue;
    }
    first.set(c.first, (first.get(c.first) ?? 0) + 1);
    const kinds = new Set(c.all.map((x) => x.split(":")[0]));
    if (kinds.size === 1) only.set(c.first, (only.get(c.first) ?? 0) + 1);
    if (args.show !== undefined && c.all.some((x) => x.startsWith(args.show!)))
      shown.push(`- ${JSON.stringify(p.a)} / ${JSON.stringify(p.b)}: ${c.all.join("; ")}`);
  }
  console.log(`\n## ${name}: ${pairs.length} pairs, served ${served} (${((100 * served) / pairs.length).toFixed(1)}%)\n`);
  console.log(`| cause (first failing check) | pairs | the only cause |`);
  console.log(`|---|---|---|`);
  for (const [k, n] of [...first].sort((x, y) => y[1] - x[1])) console.log(`| ${k} | ${n} | ${only.get(k) ?? 0} |`);
  console.log(
    `\nVerifier checks that refuse, in any place (pairs): ${[...refusing]
      .sort((x, y) => y[1] - x[1])
      .map(([k, n]) => `${k} ${n}`)
      .join(", ")}`,
  );
  if (shown.length > 0) console.log(`\n${shown.join("\n")}`);
}

function faqPairs(corpus: FaqCorpus): Pair[] {
  const all = [...corpus.intents.flatMap((i) => i.questions), ...corpus.unique];
  return corpus.intents.flatMap((i) => i.questions.flatMap((a) => i.questions.filter((b) => b !== a).map((b) => ({ a, b, rivals: all }))));
}

const natural = loadSemEval([2016]).filter((p) => p.score >= 4.8 && p.a.length <= config.semanticMaxChars && p.b.length <= config.semanticMaxChars);
await report("natural paraphrases (SemEval 2016 >= 4.8)", natural);
const faqFiles = [...["faq-replay", "faq-holdout", "faq-fresh"].map((n) => join(import.meta.dir, "data", `${n}.json`)), ...args.faq!];
for (const file of faqFiles) await report(`FAQ wordings of one intent (${file})`, faqPairs(JSON.parse(readFileSync(file, "utf8")) as FaqCorpus));
for (const file of args.pairs!) {
  const { pairs } = JSON.parse(readFileSync(file, "utf8")) as { pairs: { a: string; b: string; same: boolean }[] };
  await report(
    `same=true pairs (${file})`,
    pairs.filter((p) => p.same),
  );
}
