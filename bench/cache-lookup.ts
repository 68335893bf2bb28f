/**
 * Semantic cache lookup latency, memory per entry and index build time at 1k and 100k entries (1M
 * with --million; takes long: the index is built at roughly 1-3k vectors/s on 2 cores), all in one
 * partition (one tenant, model and context: the worst case). Vectors are
 * synthetic random unit vectors of the shipped embedding's width; the embedder is a table lookup, so
 * the figures are the cache's own cost, not the model's.
 *
 *   bun bench/cache-lookup.ts [--million] [--dims 256] [--quantization f32|f16|i8 (default: the cache's)]
 *     [--scale-only] [--tree name=/path ...]
 *
 * Baseline, measured in the same run: an exact linear scan over the same vectors.
 *
 * Random vectors never come near the similarity threshold, so the rows above never reach the
 * verifier; they are also the worst case for a graph index, which real embeddings (clustered by topic)
 * are not. A second table stores real prompts with the shipped embedder and times misses (other
 * real prompts: their nearest neighbours get verified and refused) and rewordings (verified and
 * served), next to the same cache with a threshold no neighbour passes, in the same run. A third
 * stores 100k distinct real texts from ../shared/data (prompts and their sentences, STS sentences,
 * Topical-Chat turns) with their shipped-embedder vectors, and times lookups that arrive with their
 * vector as the gateway's do (the worker embeds the prompt): new texts, and rewordings of stored ones, after a
 * warm-up on other texts, with the first round (each stored neighbour verified for the first time) apart.
 * `--tree` runs that table for several source trees in one process, each lookup of every tree back
 * to back (in roundOrder), with each lookup's thread CPU time (of the event loop thread, where the
 * lookup runs; the index build and the embedder's threads are not in it) next to its wall time: on a loaded
 * machine a wall-clock p99 is mostly waits for a core, CPU time the work. `--scale-only` skips the
 * other tables. To compare with another commit:
 *   git archive <commit> | tar -x -C /tmp/old && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   bun bench/cache-lookup.ts --scale-only --tree old=/tmp/old --tree new=.
 */
import { parseArgs } from "node:util";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  DEFAULT_CACHE_CONFIG,
  embeddingText,
  packFacets,
  requestKeys,
  SemanticCache,
  semanticPrompt,
  type CachedAnswer,
  type CacheRequest,
} from "../src/pipeline/cache";
import { embedderSignature, encodeEmbedding, type CacheRow } from "../src/pipeline/cache/persistence";
import type { Embedder } from "../src/ml/types";
import { openStore, type Store } from "../src/store/db";
import { cacheEntries } from "../src/store/schema";
import { loadModels } from "../src/pipeline/models";
import { loadPromptCorpus } from "../models/data/corpus";
import { dataPath } from "../models/data/paths";
import { loadSemEval, loadStsBenchmark } from "../models/data/sts";
import { roundOrder } from "./lib/measure";
import { dlopen, FFIType } from "bun:ffi";

const { values: args } = parseArgs({
  options: {
    million: { type: "boolean", default: false },
    dims: { type: "string", default: "256" },
    quantization: { type: "string", default: DEFAULT_CACHE_CONFIG.quantization },
    queries: { type: "string", default: "2000" },
    "scale-only": { type: "boolean", default: false },
    tree: { type: "string", multiple: true, default: [] },
  },
});
const DIMS = Number(args.dims);
const QUANT = args.quantization as "f32" | "f16" | "i8";
const QUERIES = Number(args.queries);
/** Text bytes each entry may take, so the byte bound (512 MiB by default: ~760k of these entries) never evicts before `size`. */
const ENTRY_BYTES_ROOM = 4096;
const SIZES = [1_000, 100_000, ...(args.million ? [1_000_000] : [])];

/** Deterministic random unit vector per text (xorshift seeded by the text's hash). */
function randomUnit(text: string): Float32Array {
  let x = Number(BigInt(Bun.hash(text)) & 0xffffffffn) || 1;
  const v = new Float32Array(DIMS);
  let norm = 0;
  for (let i = 0; i < DIMS; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    v[i] = ((x >>> 0) / 4294967296) * 2 - 1;
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < DIMS; i++) v[i]! /= norm;
  return v;
}

/** Case-blind, like the real embedder, so a reworded prompt gets its original's vector. */
const tableEmbedder: Embedder = { dimensions: DIMS, embed: async (text) => randomUnit(text.toLowerCase()) };

/** Prompt i, or a rewording of it (other spacing and case: another exact key, the same vector). */
const req = (i: number, reworded = false): CacheRequest => ({
  appId: "bench",
  model: "gpt-4o-mini-2024-07-18",
  messages: [{ role: "user", content: reworded ? `Synthetic  prompt number ${i}` : `synthetic prompt number ${i}` }],
  maxTokens: 256,
  params: { temperature: 0 },
});
const answer = (i: number): CachedAnswer => ({
  model: "gpt-4o-mini-2024-07-18",
  choices: [{ index: 0, message: { role: "assistant", content: `Synthetic answer ${i}: ${"lorem ipsum ".repeat(10)}` }, finish_reason: "stop" }],
  usage: { prompt_tokens: 10, completion_tokens: 40 },
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function time(n: number, f: (i: number) => Promise<unknown> | unknown): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f(i);
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) };
}

function rssMb(): number {
  Bun.gc(true);
  return process.memoryUsage().rss / 1e6;
}

/**
 * Writes `count` rows as the cache itself stores them (request `requestOf(i)`, its vector from `embedder`), so a
 * table starts full without answering that many requests first.
 */
async function prefill(
  store: Store,
  count: number,
  requestOf: (i: number) => CacheRequest,
  embedder: Embedder,
  vectorOf?: (i: number) => Float32Array,
  tree: Pick<TreeText, "encodeEmbedding" | "embedderSignature"> = { encodeEmbedding, embedderSignature },
): Promise<void> {
  const signature = await tree.embedderSignature(embedder);
  const now = Date.now();
  for (let start = 0; start < count; start += 5_000) {
    const batch: CacheRow[] = [];
    for (let i = start; i < Math.min(count, start + 5_000); i++) {
      const keys = requestKeys(requestOf(i));
      batch.push({
        id: `bench-${i}`,
        appId: "bench",
        exactKey: keys.exactKey,
        scopeKey: keys.scopeKey,
        model: "gpt-4o-mini-2024-07-18",
        promptText: keys.prompt!,
        contextHash: keys.contextHash,
        embedding: tree.encodeEmbedding(signature, vectorOf?.(i) ?? (await embedder.embed(embeddingText(keys.prompt!)))),
        response: JSON.stringify(answer(i)),
        createdAt: now,
        expiresAt: now + 3_600_000,
        hits: 0,
        lastHitAt: null,
      });
    }
    store.db.transaction((tx) => {
      for (const row of batch) tx.insert(cacheEntries).values(row).run();
    });
  }
}

const models = await loadModels();
const realEmbedder: Embedder = { dimensions: models.embedder.dimensions, embed: (t) => models.embed(t) };
const realReq = (content: string): CacheRequest => ({
  appId: "bench",
  model: "gpt-4o-mini-2024-07-18",
  messages: [{ role: "user", content }],
  maxTokens: 256,
  params: { temperature: 0 },
});
const pct = (xs: number[], p: number) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    p,
  );

if (!args["scale-only"]) {
  const rows: string[] = [];
  for (const size of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), "svc-cache-bench-"));
    const store = openStore(dir);
    await prefill(store, size, (i) => req(i), tableEmbedder);

    const before = rssMb();
    const openStart = performance.now();
    const cache = await SemanticCache.open({
      store,
      embedder: tableEmbedder,
      config: { maxEntries: size, maxBytes: size * ENTRY_BYTES_ROOM, quantization: QUANT },
    });
    const openS = (performance.now() - openStart) / 1000;
    await cache.indexed();
    const buildS = (performance.now() - openStart) / 1000;
    const perEntry = ((rssMb() - before) * 1e6) / size;
    if (cache.stats().entries !== size) throw new Error(`expected ${size} entries, loaded ${cache.stats().entries}`);

    const exact = await time(QUERIES, (i) => cache.lookup(req((i * 7919) % size)));
    // New prompts: embed (table), nearest neighbours, threshold, release: the whole miss path.
    const semantic = await time(QUERIES, async (i) => {
      const r = await cache.lookup(req(size + i));
      if (r.kind === "miss") r.fill.fail();
    });
    // A rewording of a stored prompt (same vector): found, verified, served. HNSW may miss a few on
    // random vectors, which have none of the structure of real embeddings; a miss costs a hit, not precision.
    let found = 0;
    const paraphrase = await time(QUERIES, async (i) => {
      const r = await cache.lookup(req((i * 7919) % size, true));
      if (r.kind === "hit") found++;
      else if (r.kind === "miss") r.fill.fail();
    });

    const scanned = Math.min(size, 100_000);
    const vectors = Array.from({ length: scanned }, (_, i) => randomUnit(`synthetic prompt number ${i}`));
    const scan = await time(Math.min(QUERIES, 200), (i) => {
      const q = randomUnit(`query ${i}`);
      let best = -2;
      for (const v of vectors) {
        let s = 0;
        for (let d = 0; d < DIMS; d++) s += q[d]! * v[d]!;
        if (s > best) best = s;
      }
      return best;
    });
    const scanNote = size > scanned ? " (first 100k)" : "";
    cache.flush();
    store.close();
    rmSync(dir, { recursive: true, force: true });

    const ms = (x: { p50: number; p99: number }) => `${x.p50.toFixed(3)} / ${x.p99.toFixed(3)}`;
    rows.push(
      `| ${size.toLocaleString("en")} | ${ms(exact)} | ${ms(semantic)} | ${ms(paraphrase)} | ${ms(scan)}${scanNote} | ${(scan.p50 / semantic.p50).toFixed(0)}x | ${((100 * found) / QUERIES).toFixed(1)}% | ${perEntry.toFixed(0)} | ${openS.toFixed(2)} | ${buildS.toFixed(1)} |`,
    );
  }

  const load = (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ");
  console.log(`# Semantic cache lookup (${DIMS} dims, ${QUANT} index, ${QUERIES} queries per row, load average ${load})\n`);
  console.log(
    `| entries | exact hit p50 / p99 ms | semantic miss p50 / p99 ms | semantic hit p50 / p99 ms | linear scan p50 / p99 ms (baseline) | scan / semantic miss at p50 | rewordings found | RSS bytes per entry | open (exact layer ready) s | index built s |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|---|`);
  for (const r of rows) console.log(r);

  // ---- real prompts through the verifier -----------------------------------------------------------

  const REAL_STORED = 3_000;
  const REAL_QUERIES = 1_000;
  const corpus = [...new Set(loadPromptCorpus().map((p) => p.trim()))].filter((p) => p.length >= 20 && p.length <= 1000);
  const stored = corpus.filter((_, i) => i % 2 === 0).slice(0, REAL_STORED);
  const fresh = corpus.filter((_, i) => i % 2 === 1).slice(0, REAL_QUERIES);
  const reworded = stored.slice(0, REAL_QUERIES).map((p) => `Hi! ${p.toLowerCase()} Thanks.`);

  const realDirs: { dir: string; store: Store }[] = [];
  async function realCache(similarityThreshold: number): Promise<SemanticCache> {
    const dir = mkdtempSync(join(tmpdir(), "svc-cache-bench-real-"));
    const store = openStore(dir);
    realDirs.push({ dir, store });
    const cache = await SemanticCache.open({ store, embedder: realEmbedder, config: { similarityThreshold } });
    await cache.indexed();
    for (const [i, p] of stored.entries()) {
      const r = await cache.lookup(realReq(p));
      if (r.kind === "miss") r.fill.complete(answer(i));
    }
    await cache.indexed();
    return cache;
  }

  const configs = {
    "shipped threshold (verifier runs)": await realCache(DEFAULT_CACHE_CONFIG.similarityThreshold),
    "threshold 1.01 (no candidate, baseline)": await realCache(1.01),
  };
  const real: Record<string, { miss: number[]; hit: number[]; served: number }> = {};
  for (let round = 0; round < 3; round++) {
    for (const [name, cache] of Object.entries(configs)) {
      const r = (real[name] ??= { miss: [], hit: [], served: 0 });
      for (const [list, texts] of [
        [r.miss, fresh],
        [r.hit, reworded],
      ] as const) {
        for (const text of texts) {
          const t = performance.now();
          const out = await cache.lookup(realReq(text));
          list.push(performance.now() - t);
          if (out.kind === "miss") out.fill.fail();
          else if (out.kind === "hit" && list === r.hit) r.served++;
        }
      }
    }
  }
  console.log(
    `\n## Real prompts through the verifier (${REAL_STORED.toLocaleString("en")} stored, ${REAL_QUERIES.toLocaleString("en")} queries of each kind, 3 interleaved rounds, shipped embedder)\n`,
  );
  console.log(`| cache | new prompt (miss) p50 / p99 ms | rewording ("Hi! <lower case> Thanks.") p50 / p99 ms | rewordings served |`);
  console.log(`|---|---|---|---|`);
  for (const [name, r] of Object.entries(real))
    console.log(
      `| ${name} | ${pct(r.miss, 0.5).toFixed(3)} / ${pct(r.miss, 0.99).toFixed(3)} | ${pct(r.hit, 0.5).toFixed(3)} / ${pct(r.hit, 0.99).toFixed(3)} | ${((100 * r.served) / (3 * REAL_QUERIES)).toFixed(1)}% |`,
    );
  for (const cache of Object.values(configs)) cache.flush();
  for (const { dir, store } of realDirs) {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- real texts at 100k ------------------------------------------------------------------------

const SCALE_STORED = 100_000;
const SCALE_QUERIES = 2_000;

/** Distinct real texts, in a fixed order: corpus prompts and their sentences, STS sentences, Topical-Chat turns. */
function realTexts(): string[] {
  const texts = new Set<string>();
  const add = (t: string) => {
    const text = t.trim();
    if (text.length >= 12 && text.length <= 1000) texts.add(text);
  };
  for (const p of loadPromptCorpus()) {
    add(p);
    // Not the compressor's splitSentences: it also cuts at line breaks, which would fill the table with lines of code.
    for (const sentence of p.split(/(?<=[.?!])\s+/)) add(sentence);
  }
  for (const pair of [...loadStsBenchmark("train"), ...loadStsBenchmark("dev"), ...loadSemEval([2012, 2013, 2014, 2015, 2016])]) {
    add(pair.a);
    add(pair.b);
  }
  for (const file of ["valid_freq.json", "valid_rare.json"]) {
    const chats = JSON.parse(readFileSync(dataPath("topical-chat", file), "utf8")) as Record<string, { content: { message: string }[] }>;
    for (const chat of Object.values(chats)) for (const turn of chat.content) add(turn.message);
  }
  return [...texts];
}

/**
 * This thread's CPU time in ms, to the nanosecond (clock_gettime(CLOCK_THREAD_CPUTIME_ID)):
 * process.threadCpuUsage() counts in 4 ms ticks here, coarser than a lookup.
 */
const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const CLOCK_THREAD_CPUTIME_ID = 3;
const timespec = new BigInt64Array(2);
function threadCpuMs(): number {
  libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, timespec);
  return Number(timespec[0]) * 1e3 + Number(timespec[1]) / 1e6;
}

/** One source tree's cache, filled with the same rows as every other tree's. */
interface ScaleTree {
  name: string;
  /** The tree's own embedded text, facets and vector encoding (see TreeText). */
  tree: TreeText;
  cache: SemanticCache;
  store: Store;
  dir: string;
  buildS: number;
  /** Per round, wall and thread CPU ms of each lookup, for new texts and rewordings. */
  wall: { miss: number[][]; hit: number[][] };
  cpu: { miss: number[][]; hit: number[][] };
  served: number;
}

const texts = realTexts();
// Every 50th text is held out as a new prompt; the stored ones fill the cache up to SCALE_STORED.
const held = texts.filter((_, i) => i % 50 === 0).slice(0, SCALE_QUERIES);
const kept = texts.filter((_, i) => i % 50 !== 0).slice(0, SCALE_STORED);
if (kept.length < SCALE_STORED) console.log(`\n(only ${kept.length.toLocaleString("en")} distinct real texts to store)`);
const embedStart = performance.now();
/**
 * Each tree's cache reads its stored rows and its queries as that tree's gateway makes them: the
 * vector of its own embedded text under its own tag (a row of another tag is never indexed) and its
 * own packed facets. Vectors are memoised by the embedded text, which most texts share across trees.
 */
const vectorMemo = new Map<string, Float32Array>();
async function embedOnce(text: string): Promise<Float32Array> {
  let v = vectorMemo.get(text);
  if (!v) vectorMemo.set(text, (v = await realEmbedder.embed(text)));
  return v;
}
interface TreeText {
  embeddingText: typeof embeddingText;
  packFacets: typeof packFacets;
  encodeEmbedding: typeof encodeEmbedding;
  embedderSignature: typeof embedderSignature;
}
const thisTree: TreeText = { embeddingText, packFacets, encodeEmbedding, embedderSignature };
for (const t of kept) await embedOnce(embeddingText(semanticPrompt(realReq(t).messages)!));
const embedS = (performance.now() - embedStart) / 1000;

const treeSpecs = args.tree.length > 0 ? args.tree : ["this=."];
const scaleTrees: ScaleTree[] = [];
for (const spec of treeSpecs) {
  const [name, path] = spec.split("=") as [string, string | undefined];
  if (!path) throw new Error(`--tree wants name=/path, got '${spec}'`);
  const cacheModule = await import(resolve(path, "src/pipeline/cache/index.ts"));
  const { SemanticCache: TreeCache } = cacheModule as { SemanticCache: typeof SemanticCache };
  const persistence = (await import(resolve(path, "src/pipeline/cache/persistence.ts"))) as Pick<TreeText, "encodeEmbedding" | "embedderSignature">;
  const tree: TreeText = { ...thisTree, ...(cacheModule as Partial<TreeText>), ...persistence };
  const vectors: Float32Array[] = [];
  for (const t of kept) vectors.push(await embedOnce(tree.embeddingText(semanticPrompt(realReq(t).messages)!)));
  const dir = mkdtempSync(join(tmpdir(), "svc-cache-bench-scale-"));
  const store = openStore(dir);
  await prefill(
    store,
    kept.length,
    (i) => realReq(kept[i]!),
    realEmbedder,
    (i) => vectors[i]!,
    tree,
  );
  const open = performance.now();
  const cache = await TreeCache.open({ store, embedder: realEmbedder, config: { maxEntries: kept.length, maxBytes: kept.length * ENTRY_BYTES_ROOM } });
  await cache.indexed();
  const rounds = () => [[], [], []] as number[][];
  scaleTrees.push({
    name,
    tree,
    cache,
    store,
    dir,
    buildS: (performance.now() - open) / 1000,
    wall: { miss: rounds(), hit: rounds() },
    cpu: { miss: rounds(), hit: rounds() },
    served: 0,
  });
}

/**
 * The request the gateway sends the cache: with the vector and the packed facets its worker computed
 * (src/pipeline/optimize.ts), of the prompt as the cache reads it. A tree whose cache takes no facets ignores them.
 */
const asGatewaySends = async (text: string, tree: TreeText): Promise<CacheRequest> => {
  const r = realReq(text);
  const prompt = semanticPrompt(r.messages)!;
  return { ...r, embedding: await embedOnce(tree.embeddingText(prompt)), facets: tree.packFacets(prompt) };
};
const rewordTexts = kept
  .filter((_, i) => i % Math.floor(kept.length / SCALE_QUERIES) === 0)
  .slice(0, SCALE_QUERIES)
  .map((t) => `Hi! ${t.toLowerCase()} Thanks.`);
/** Each tree's queries, in the same order for every tree. */
const newQueries = new Map<ScaleTree, CacheRequest[]>();
const rewordQueries = new Map<ScaleTree, CacheRequest[]>();
for (const t of scaleTrees) {
  newQueries.set(t, await Promise.all(held.map((q) => asGatewaySends(q, t.tree))));
  rewordQueries.set(t, await Promise.all(rewordTexts.map((q) => asGatewaySends(q, t.tree))));
}
// The JIT's first compilations (regexes of the verifier, the index's search) land on the first lookups
// of a fresh process; other held-out texts take them, so the rounds below time a warm gateway.
const warmQueries = await Promise.all(
  texts
    .filter((_, i) => i % 50 === 0)
    .slice(SCALE_QUERIES, SCALE_QUERIES + 500)
    .map((q) => asGatewaySends(q, thisTree)),
);
for (const t of scaleTrees) {
  for (const q of warmQueries) {
    const out = await t.cache.lookup(q);
    if (out.kind === "miss") out.fill.fail();
  }
}
// Round 1 verifies each stored neighbour for the first time; rounds 2-3 again.
for (let round = 0; round < 3; round++) {
  for (const kind of ["miss", "hit"] as const) {
    const queries = kind === "miss" ? newQueries : rewordQueries;
    for (let qi = 0; qi < queries.get(scaleTrees[0]!)!.length; qi++) {
      for (const t of roundOrder(scaleTrees, qi)) {
        const q = queries.get(t)![qi]!;
        const cpu0 = threadCpuMs();
        const t0 = performance.now();
        const out = await t.cache.lookup(q);
        t.wall[kind][round]!.push(performance.now() - t0);
        t.cpu[kind][round]!.push(threadCpuMs() - cpu0);
        if (out.kind === "miss") out.fill.fail();
        else if (out.kind === "hit" && kind === "hit") t.served++;
      }
    }
  }
}
for (const t of scaleTrees) {
  t.cache.flush();
  t.store.close();
  rmSync(t.dir, { recursive: true, force: true });
}
const load = (await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ");
console.log(
  `\n## Real texts at scale (${kept.length.toLocaleString("en")} stored, ${SCALE_QUERIES.toLocaleString("en")} queries of each kind, 3 rounds after ${warmQueries.length} warm-up lookups of other texts; queries carry their vector and facets, as the gateway's do; load average ${load})\n`,
);
console.log(
  `Round 1 is the first time each stored neighbour is verified; rounds 2-3 are what a gateway that has served its cache a while pays. Trees' lookups interleaved; CPU is this thread's time per lookup. Stored texts embedded in ${embedS.toFixed(1)} s.\n`,
);
console.log(
  `| tree | rounds | new text (miss) p50 / p99 ms | rewording p50 / p99 ms | miss CPU p50 / p99 ms | rewording CPU p50 / p99 ms | rewordings served | index built s |`,
);
console.log(`|---|---|---|---|---|---|---|---|`);
const ms = (xs: number[]) => `${pct(xs, 0.5).toFixed(3)} / ${pct(xs, 0.99).toFixed(3)}`;
for (const t of scaleTrees) {
  const served = `${((100 * t.served) / (3 * rewordTexts.length)).toFixed(1)}%`;
  const row = (label: string, pick: (xs: number[][]) => number[], extra: string) =>
    console.log(`| ${t.name} | ${label} | ${ms(pick(t.wall.miss))} | ${ms(pick(t.wall.hit))} | ${ms(pick(t.cpu.miss))} | ${ms(pick(t.cpu.hit))} | ${extra}`);
  row("all 3", (xs) => xs.flat(), `${served} | ${t.buildS.toFixed(1)} |`);
  row("round 1", (xs) => xs[0]!, " | |");
  row("rounds 2-3", (xs) => xs.slice(1).flat(), " | |");
}
