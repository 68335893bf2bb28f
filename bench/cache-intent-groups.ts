/**
 * The verifier alone on intent groups (bench/data/intent-groups/*.json, training data written for the project) and
 * FAQ files: every ordered pair of two wordings of one group or intent, and every wording against each of its
 * group's near misses both ways, decided by the verifier with the shipped synonyms and the cache's word vectors,
 * whatever their embedding cosine (what bench/cache-intent-reach.ts --threshold=-1 does for same-intent pairs, and
 * the near misses it does not read). Served near misses are listed: each one would be a false hit wherever the
 * embedding lets it through. Only totals and those near misses are printed.
 *
 *   bun bench/cache-intent-groups.ts bench/data/faq-dev12.json bench/data/intent-groups/*.json
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { DEFAULT_MODELS_DIR } from "../src/ml/load";
import { DEFAULT_CACHE_CONFIG, compareFacets, extractFacets, wordsToEmbed } from "../src/pipeline/cache";
import { SHIPPED_SYNONYMS } from "../src/pipeline/cache/request-synonyms";
import { loadModels } from "../src/pipeline/models";

interface Group {
  wordings: string[];
  nearMisses: string[];
}

/** Intent groups ({ groups: [{ wordings, near_misses }] }) or an FAQ file ({ intents: [{ questions }] }, no near misses). */
function loadGroups(path: string): Group[] {
  const data = JSON.parse(readFileSync(path, "utf8")) as {
    groups?: { wordings: string[]; near_misses?: string[] }[];
    intents?: { questions: string[] }[];
  };
  if (data.groups) return data.groups.map((g) => ({ wordings: g.wordings, nearMisses: g.near_misses ?? [] }));
  if (data.intents) return data.intents.map((i) => ({ wordings: i.questions, nearMisses: [] }));
  throw new Error(`${path}: expected { groups: [...] } or { intents: [...] }`);
}

const models = await loadModels(DEFAULT_MODELS_DIR);
async function serves(query: string, cached: string): Promise<boolean> {
  const [a, b] = [extractFacets(query), extractFacets(cached)];
  const vectors = new Map<string, Float32Array>();
  for (const w of wordsToEmbed(a, b)) vectors.set(w, await models.embed(w));
  return compareFacets(a, b, { vectors, minSimilarity: DEFAULT_CACHE_CONFIG.minWordSimilarity, synonyms: SHIPPED_SYNONYMS }).equivalent;
}

console.log("| file | same-group pairs served | near-miss pairs served (false hits) |\n|---|---|---|");
const served: string[] = [];
for (const file of process.argv.slice(2)) {
  let [same, sameServed, near, nearServed] = [0, 0, 0, 0];
  for (const group of loadGroups(file)) {
    for (const a of group.wordings) {
      for (const b of group.wordings) if (a !== b && (same++, await serves(a, b))) sameServed++;
      for (const miss of group.nearMisses) {
        for (const [query, cached] of [
          [a, miss],
          [miss, a],
        ] as const) {
          near++;
          if (await serves(query, cached)) {
            nearServed++;
            served.push(`- ${basename(file)}: "${query}" / "${cached}"`);
          }
        }
      }
    }
  }
  console.log(`| ${basename(file, ".json")} | ${sameServed} of ${same} | ${nearServed} of ${near} |`);
}
if (served.length > 0) console.log(`\nNear misses served:\n${served.join("\n")}`);
