/**
 * FAQ replay: the hand-written support questions of bench/data/faq-replay.json asked one after another
 * through a real SemanticCache (SQLite store, the given embedder and synonym table), as a support
 * bot's traffic would reach the gateway. A question whose intent was asked before in another wording
 * is a repeat the cache should serve; a hit that answers with another intent's answer is wrong.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Rng } from "../../models/data/rng";
import type { Embedder } from "../../src/ml/types";
import { SemanticCache, type CacheConfig, type CachedAnswer, type SynonymTable } from "../../src/pipeline/cache";
import { openStore } from "../../src/store/db";

export interface FaqCorpus {
  intents: { id: string; questions: string[] }[];
  unique: string[];
}

/**
 * `faq-replay.json` is the corpus the verifier's question frames were written against;
 * `faq-holdout.json` (other domains) was written before the changes it measures and tunes nothing;
 * `faq-fresh.json`, a second hold-out in ten more domains, likewise (issue 24's third session).
 */
export type FaqName = "faq-replay" | "faq-holdout" | "faq-fresh";

export function loadFaq(name: FaqName = "faq-replay"): FaqCorpus {
  return loadFaqFile(join(import.meta.dir, "..", "data", `${name}.json`));
}

/** A corpus of the same shape anywhere (bench/cache-eval.ts --faq: a hold-out written elsewhere). */
export function loadFaqFile(path: string): FaqCorpus {
  const corpus = JSON.parse(readFileSync(path, "utf8")) as Partial<FaqCorpus>;
  if (!Array.isArray(corpus.intents) || !corpus.intents.every((i) => typeof i.id === "string" && Array.isArray(i.questions))) {
    throw new Error(`${path}: expected { intents: [{ id, questions: string[] }], unique: string[] }`);
  }
  return { intents: corpus.intents, unique: corpus.unique ?? [] };
}

export interface ReplayResult {
  questions: number;
  repeats: number;
  served: number;
  wrong: number;
  /** Wrong hits as "asked => served the answer of". */
  wrongPairs: string[];
  /** Repeats not served, with the cache's refusal counts for the whole run. */
  missed: string[];
  refused: Record<string, number>;
}

/** Replays every question once, in an order drawn from `rng`; each answer says which intent it answers. */
export async function replayFaq(
  corpus: FaqCorpus,
  embedder: Embedder,
  synonyms: SynonymTable | undefined,
  rng: Rng,
  config: Partial<CacheConfig> = {},
): Promise<ReplayResult> {
  const stream = rng.shuffle([
    ...corpus.intents.flatMap((i) => i.questions.map((q) => ({ q, intent: i.id }))),
    ...corpus.unique.map((q, n) => ({ q, intent: `unique-${n}` })),
  ]);
  const dir = mkdtempSync(join(tmpdir(), "svc-faq-"));
  const store = openStore(dir);
  const cache = await SemanticCache.open({ store, embedder, synonyms, config: { ...config, flushDelayMs: 5 } });
  const seen = new Set<string>();
  const prompts = new Map<string, string>();
  const result: ReplayResult = { questions: stream.length, repeats: 0, served: 0, wrong: 0, wrongPairs: [], missed: [], refused: {} };
  try {
    for (const { q, intent } of stream) {
      const repeat = seen.has(intent);
      seen.add(intent);
      prompts.set(q, intent);
      if (repeat) result.repeats++;
      const upstream = async (): Promise<CachedAnswer> => ({
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", content: intent }, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 10 },
      });
      const { answer, hit } = await cache.through(
        { appId: "faq", model: "m", messages: [{ role: "user", content: q }], maxTokens: 500, params: { temperature: 0 } },
        upstream,
      );
      if (hit) {
        if (answer.choices[0]!.message.content === intent) result.served++;
        else {
          result.wrong++;
          result.wrongPairs.push(`${JSON.stringify(q)} => ${JSON.stringify(hit.matchedPrompt)}`);
        }
      } else if (repeat) result.missed.push(q);
      // Time passes between two customers' questions: the answer's vector is indexed by then.
      await cache.indexed();
    }
    result.refused = cache.stats().refused;
  } finally {
    cache.flush();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}
