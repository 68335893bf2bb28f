import { afterEach, describe, expect, test } from "bun:test";
import {
  SemanticCache,
  embeddingText,
  packFacets,
  replayDeltas,
  type CacheConfig,
  type CachedAnswer,
  type CacheLog,
  SynonymTable,
} from "../../src/pipeline/cache";
import { stem } from "../../src/pipeline/cache/facets";
import type { SqliteStore } from "../../src/store/db";
import type { Embedder } from "../../src/ml/types";
import { CountingUpstream, LexicalEmbedder, request, TempStoreDir } from "./fixtures";

/** The lexical stand-in embedder puts paraphrases above 0.8 and most unrelated prompts far below. */
const TEST_CONFIG: Partial<CacheConfig> = { similarityThreshold: 0.8, flushDelayMs: 5 };

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

function tempDir(): TempStoreDir {
  const dir = new TempStoreDir();
  cleanups.push(() => dir.cleanup());
  return dir;
}

async function openCache(
  opts: { config?: Partial<CacheConfig>; now?: () => number; embedder?: Embedder; store?: SqliteStore; log?: CacheLog; synonyms?: SynonymTable } = {},
) {
  const store = opts.store ?? tempDir().open();
  const cache = await SemanticCache.open({
    store,
    embedder: opts.embedder ?? new LexicalEmbedder(),
    config: { ...TEST_CONFIG, ...opts.config },
    now: opts.now,
    log: opts.log,
    synonyms: opts.synonyms,
  });
  // Runs before the store closes (cleanups run last-in first-out), as a gateway shuts down.
  cleanups.push(() => cache.flush());
  return { cache, store };
}

describe("exact layer", () => {
  test("a repeated request is answered from the cache without calling upstream", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    const first = await cache.through(request("What is the capital of France?"), up.call);
    const second = await cache.through(request("What is the capital of France?"), up.call);
    expect(up.calls).toBe(1);
    expect(first.hit).toBeNull();
    expect(second.hit?.layer).toBe("exact");
    expect(second.answer).toEqual(first.answer);
    expect(second.hit?.answer.model).toBe("gpt-4o-mini-2024-07-18");
    expect(second.hit?.answer.usage).toEqual({ prompt_tokens: 12, completion_tokens: 3 });
  });

  test("key order of params and trailing whitespace do not matter; the end-user id does not either", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    await cache.through(request("Name three primes.", { params: { temperature: 0, top_p: 1, user: "u1" } }), up.call);
    const again = await cache.through(request("Name three primes.  \n", { params: { top_p: 1, temperature: 0, user: "u2" } }), up.call);
    expect(again.hit?.layer).toBe("exact");
    expect(up.calls).toBe(1);
  });

  test("a hit hands out a copy: changing it does not change the cache", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    await cache.through(request("Say hi"), up.call);
    const hit = await cache.through(request("Say hi"), up.call);
    hit.answer.choices[0]!.message.content = "tampered";
    const again = await cache.through(request("Say hi"), up.call);
    expect(again.answer.choices[0]!.message.content).toBe("answer #1");
  });

  test("every option that changes the answer separates entries", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    const base = request("Summarise the plot of Hamlet.");
    const variants = [
      base,
      { ...base, model: "claude-3-haiku-20240307" },
      { ...base, maxTokens: 50 },
      { ...base, params: { temperature: 0.3 } },
      { ...base, params: { temperature: 0, response_format: { type: "json_object" } } },
      { ...base, params: { temperature: 0, tools: [{ type: "function", function: { name: "lookup" } }] } },
      { ...base, messages: [{ role: "system" as const, content: "Answer in French." }, base.messages[1]!] },
    ];
    for (const v of variants) expect((await cache.through(v, up.call)).hit).toBeNull();
    expect(up.calls).toBe(variants.length);
    for (const v of variants) expect((await cache.through(v, up.call)).hit?.layer).toBe("exact");
  });
});

describe("semantic layer", () => {
  test("a paraphrase is answered with the cached answer", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    await cache.through(request("What is the capital of France?"), up.call);
    await cache.indexed();
    const para = await cache.through(request("what's the capital of France"), up.call);
    expect(up.calls).toBe(1);
    expect(para.hit?.layer).toBe("semantic");
    expect(para.hit?.similarity).toBeGreaterThanOrEqual(0.8);
    expect(para.hit?.matchedPrompt).toBe("What is the capital of France?");
    expect(para.answer.choices[0]!.message.content).toBe("answer #1");
  });

  test("a word swapped for a synonym hits with the synonym table, without embedding a word; another verb still misses", async () => {
    const embedder = new LexicalEmbedder();
    // An operator's table (none ships) that knows "repair" / "fix".
    const synonyms = new SynonymTable([`${stem("repair")} ${stem("fix")}`]);
    const { cache } = await openCache({ embedder, synonyms, config: { similarityThreshold: 0.5 } });
    const up = new CountingUpstream();
    await cache.through(request("How do I repair a tent?"), up.call);
    await cache.indexed();
    const before = embedder.calls;
    const synonym = await cache.through(request("How do I fix a tent?"), up.call);
    expect(synonym.hit?.layer).toBe("semantic");
    expect(synonym.hit?.matchedPrompt).toBe("How do I repair a tent?");
    // One call: the prompt itself; "repair" / "fix" was settled by the table.
    expect(embedder.calls - before).toBe(1);
    expect((await cache.through(request("How do I pitch a tent?"), up.call)).hit).toBeNull();
    expect(up.calls).toBe(2);

    const { cache: plain } = await openCache({ synonyms: new SynonymTable([]), config: { similarityThreshold: 0.5 } });
    await plain.through(request("How do I repair a tent?"), up.call);
    await plain.indexed();
    expect((await plain.through(request("How do I fix a tent?"), up.call)).hit).toBeNull();
    expect(plain.stats().refused.content).toBe(1);
  });

  test("the shipped request words pair by default, a conditional group only where both prompts share its context", async () => {
    const { cache } = await openCache({ config: { similarityThreshold: 0.5 } });
    const up = new CountingUpstream();
    for (const p of ["How do I update my email?", "How do I update the app?", "Do you ship to Norway?"]) await cache.through(request(p), up.call);
    await cache.indexed();
    expect((await cache.through(request("How do I change my email?"), up.call)).hit?.matchedPrompt).toBe("How do I update my email?");
    expect((await cache.through(request("Do you deliver to Norway?"), up.call)).hit?.matchedPrompt).toBe("Do you ship to Norway?");
    // "change the app" (another app) is no "update the app" (a new version of it).
    expect((await cache.through(request("How do I change the app?"), up.call)).hit).toBeNull();
    expect(up.calls).toBe(4);
  });

  test('"How do I ...?" answers "Can I ...?" for an action on what is the user\'s, never the other way round', async () => {
    const { cache } = await openCache({ config: { similarityThreshold: 0.5 } });
    const up = new CountingUpstream();
    await cache.through(request("How do I cancel my subscription?"), up.call);
    await cache.through(request("Can I pause my membership?"), up.call);
    await cache.indexed();
    expect((await cache.through(request("Can I cancel my subscription?"), up.call)).hit?.matchedPrompt).toBe("How do I cancel my subscription?");
    // The cached "Can I" answer may be a bare "Yes.": no answer to "how".
    expect((await cache.through(request("How do I pause my membership?"), up.call)).hit).toBeNull();
    expect(up.calls).toBe(3);
  });

  test("the facets a request brings (the gateway's worker packs them) are what its lookup and the entry it fills are verified by; facets of another text are not used", async () => {
    const dir = tempDir();
    const store = dir.open();
    const { cache } = await openCache({ store });
    const up = new CountingUpstream();
    // Bytes that do not describe their prompt show whose facets the cache reads: a caller's, not its own.
    // Another tenant's lookups never meet this one's entries.
    const misleading = (prompt: string, of: string, appId = "app_a") => ({ appId, facets: { prompt, bytes: packFacets(of).bytes } });
    const other = { appId: "app_b" };
    await cache.through(request("What is the capital of France?", misleading("What is the capital of France?", "What is the capital of Germany?")), up.call);
    await cache.indexed();
    // Failed rather than filled, so that the entry above stays the only one of France.
    const refused = await cache.lookup(request("what's the capital of France"));
    expect(refused.kind).toBe("miss");
    if (refused.kind === "miss") refused.fill.fail();
    expect(cache.stats().refused.entity).toBe(1);

    await cache.through(request("What is the capital of Spain?", other), up.call);
    await cache.indexed();
    const spain = "what's the capital of Spain";
    expect((await cache.through(request(spain, misleading(spain, "what's the capital of Italy", "app_b")), up.call)).hit).toBeNull();
    expect(cache.stats().refused.entity).toBe(2);
    // Facets of a text other than the request's prompt are ignored: the cache extracts its own.
    const ignored = await cache.through(request("What's the capital of Spain?", misleading(spain, "what's the capital of Italy", "app_b")), up.call);
    expect(ignored.hit?.layer).toBe("semantic");
    cache.flush();
    store.close();

    // After a restart the entries' facets are extracted again, from their text.
    const { cache: reopened } = await openCache({ store: dir.open() });
    await reopened.indexed();
    expect((await reopened.through(request("what's the capital of France"), up.call)).hit?.matchedPrompt).toBe("What is the capital of France?");
  });

  test("a filled answer's vector is indexed after the call returns: the exact layer serves at once, a paraphrase once it is in", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    await cache.through(request("What is the capital of France?"), up.call);
    expect((await cache.through(request("What is the capital of France?"), up.call)).hit?.layer).toBe("exact");
    const early = await cache.through(request("what's the capital of France"), up.call);
    expect(early.hit).toBeNull();
    await cache.indexed();
    const later = await cache.through(request("what is the capital of France"), up.call);
    expect(later.hit?.layer).toBe("semantic");
    expect(later.hit?.matchedPrompt).toBe("What is the capital of France?");
    expect(up.calls).toBe(2);
  });

  test("an entry evicted while its vector waits to be indexed is never served; the one kept is", async () => {
    const { cache } = await openCache({ config: { maxEntries: 1 } });
    const up = new CountingUpstream();
    await cache.through(request("What is the capital of France?"), up.call);
    await cache.through(request("How tall is Mount Everest?"), up.call);
    await cache.indexed();
    expect(cache.stats().entries).toBe(1);
    expect((await cache.through(request("how tall is Mount Everest"), up.call)).hit?.layer).toBe("semantic");
    expect((await cache.through(request("what is the capital of France"), up.call)).hit).toBeNull();
    expect(up.calls).toBe(3);
  });

  const nearMisses: [string, string, string][] = [
    ["number", "What is 17 times 23?", "What is 17 times 24?"],
    ["operator", "What is 2+3?", "What is 2*3?"],
    ["negation", "Why is the sky blue?", "Why is the sky not blue?"],
    ["entity", "What is the capital city of France?", "What is the capital city of Spain?"],
    ["unit", "How many grams are in 3 cups of flour?", "How many ounces are in 3 cups of flour?"],
    ["direction", "How do I turn on dark mode in Slack?", "How do I turn off dark mode in Slack?"],
    ["direction", "How do I encrypt a file with gpg?", "How do I decrypt a file with gpg?"],
    ["language", "Write a function that reverses a string in C", "Write a function that reverses a string in C++"],
    ["format", "List the planets of the solar system as JSON", "List the planets of the solar system as YAML"],
    ["order", "Spain beat Italy 2-0 in the final", "Italy beat Spain 2-0 in the final"],
    ["order", "Write a letter from a tenant to a landlord", "Write a letter from a landlord to a tenant"],
    ["order", "Move the rows from table A to table B", "Move the rows from table B to table A"],
    ["direction", "How do I convert Celsius to Fahrenheit?", "How do I convert Fahrenheit to Celsius?"],
    ["operator", "Is a != b true when a is 1 and b is '1'?", "Is a !== b true when a is 1 and b is '1'?"],
    ["operator", "Compute (a + b) / 2 for a = 3 and b = 5", "Compute a + b / 2 for a = 3 and b = 5"],
    ["literal", "What does `ls -a` print?", "What does `ls -l` print?"],
    ["role", "Why do cats purr?", "How do cats purr?"],
    ["role", "Which countries use the euro?", "Do countries use the euro?"],
    ["content", "How do I reset my password?", "How do I reset my username?"],
    ["order", "Her sister gave her $50 for her to buy the heels.", "Her sister gave her $50 by her to buy the heels."],
    ["direction", "How do I log in to the app?", "How do I log out of the app?"],
    ["direction", "How do I switch on roaming?", "How do I turn off roaming?"],
    ["role", "Can every user see my file?", "Can some user see my file?"],
    ["role", "Is it legal to grow?", "Yes, it's legal to grow."],
  ];
  for (const [kind, cached, asked] of nearMisses) {
    test(`a near-miss (${kind}) reaches the semantic layer and is not answered from the cache`, async () => {
      // A low threshold, so that every pair is a candidate and the verifier alone decides.
      const { cache } = await openCache({ config: { similarityThreshold: 0.3 } });
      const up = new CountingUpstream();
      await cache.through(request(cached), up.call);
      await cache.indexed();
      const res = await cache.through(request(asked), up.call);
      expect(res.hit).toBeNull();
      expect(up.calls).toBe(2);
      expect(res.answer.choices[0]!.message.content).toBe("answer #2");
      // The cached prompt was the candidate, and the verifier refused it for this reason.
      expect(cache.stats().refused).toEqual({ [kind]: 1 });
    });
  }

  const rewordings: [string, string][] = [
    ["How do I cancel my plan?", "I want to cancel my plan, how do I do it?"],
    ["How do I reset my password?", "I forgot my password, how can I change it?"],
    ["How do I turn off notifications?", "How do I disable notifications?"],
    ["I can't log in to my account", "I can't sign in to my account"],
    ["What payment methods do you accept?", "Which payment methods do you accept?"],
  ];
  for (const [cached, asked] of rewordings) {
    test(`a rewording the verifier can prove ("${asked}") is served from the semantic layer`, async () => {
      const { cache } = await openCache({ config: { similarityThreshold: 0.3 } });
      const up = new CountingUpstream();
      await cache.through(request(cached), up.call);
      await cache.indexed();
      const res = await cache.through(request(asked), up.call);
      expect(res.hit?.layer).toBe("semantic");
      expect(res.hit?.matchedPrompt).toBe(cached);
      expect(up.calls).toBe(1);
    });
  }

  test("a coordinated list asked in another order is served from the semantic layer", async () => {
    const { cache } = await openCache({ config: { similarityThreshold: 0.3 } });
    const up = new CountingUpstream();
    await cache.through(request("What is the difference between apples and pears?"), up.call);
    await cache.indexed();
    const res = await cache.through(request("What is the difference between pears and apples?"), up.call);
    expect(res.hit?.layer).toBe("semantic");
    expect(up.calls).toBe(1);
  });

  test("the same question after different earlier turns is not a hit", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    const history = (topic: string) => [
      { role: "system" as const, content: "You are a helpful assistant." },
      { role: "user" as const, content: `Tell me about ${topic}.` },
      { role: "assistant" as const, content: `${topic} is a programming language.` },
      { role: "user" as const, content: "How do I install it?" },
    ];
    await cache.through(request("", { messages: history("Rust") }), up.call);
    await cache.indexed();
    const other = await cache.through(request("", { messages: history("Haskell") }), up.call);
    expect(other.hit).toBeNull();
    const para = await cache.through(request("", { messages: [...history("Rust").slice(0, 3), { role: "user", content: "how do I install it" }] }), up.call);
    expect(para.hit?.layer).toBe("semantic");
    expect(up.calls).toBe(2);
  });

  test("a prompt longer than the embedding window gets only the exact layer", async () => {
    const { cache } = await openCache({ config: { semanticMaxChars: 40 } });
    const up = new CountingUpstream();
    const long = "Please explain in simple words how photosynthesis works in plants";
    await cache.through(request(long), up.call);
    expect((await cache.through(request(`${long}.`), up.call)).hit).toBeNull();
    expect((await cache.through(request(long), up.call)).hit?.layer).toBe("exact");
  });

  test("an embedder failure leaves the exact layer working", async () => {
    const failing: Embedder = {
      dimensions: 8,
      embed: async (t) =>
        t.startsWith("semantic cache signature probe") ? new Float32Array(8).fill(Math.SQRT1_2 / 2) : Promise.reject(new Error("model down")),
    };
    const warnings: string[] = [];
    const { cache } = await openCache({ embedder: failing, log: { warn: (_f, m) => warnings.push(m) } });
    const up = new CountingUpstream();
    await cache.through(request("Hello there"), up.call);
    expect((await cache.through(request("Hello there"), up.call)).hit?.layer).toBe("exact");
    expect(up.calls).toBe(1);
    expect(warnings.length).toBeGreaterThan(0);
  });
});

describe("tenancy, expiry, bounds, persistence", () => {
  test("tenants never share entries, exact or semantic", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    await cache.through(request("What is the capital of France?", { appId: "app_a" }), up.call);
    expect((await cache.through(request("What is the capital of France?", { appId: "app_b" }), up.call)).hit).toBeNull();
    await cache.indexed();
    expect(cache.stats().partitions).toBe(2);
    expect((await cache.through(request("what's the capital of France", { appId: "app_c" }), up.call)).hit).toBeNull();
    // Another tenant's entry is not even a candidate: its vector is in another partition, never searched.
    expect(cache.stats().refused).toEqual({});
    expect(up.calls).toBe(3);
    expect((await cache.through(request("What is the capital of France?", { appId: "app_b" }), up.call)).answer.choices[0]!.message.content).toBe("answer #2");
    // The same paraphrase is served within the tenant: the miss above was the partition's doing.
    expect((await cache.through(request("what's the capital of France", { appId: "app_a" }), up.call)).hit?.layer).toBe("semantic");
    expect(up.calls).toBe(3);
  });

  test("an entry expires after its TTL, in memory and in the store", async () => {
    let now = 1_000_000;
    const { cache, store } = await openCache({ config: { ttlMs: 60_000 }, now: () => now });
    const up = new CountingUpstream();
    await cache.through(request("What is the capital of France?"), up.call);
    now += 59_000;
    expect((await cache.through(request("What is the capital of France?"), up.call)).hit?.layer).toBe("exact");
    now += 2_000;
    expect((await cache.through(request("What is the capital of France?"), up.call)).hit).toBeNull();
    expect(up.calls).toBe(2);
    now += 61_000;
    cache.flush();
    const { cache: reopened } = await openCache({ store, now: () => now });
    expect(reopened.stats().entries).toBe(0);
    expect(store.sqlite.query("SELECT count(*) AS n FROM cache_entries").get()).toEqual({ n: 0 });
  });

  test("at the size bound the least recently used entry is evicted", async () => {
    const { cache, store } = await openCache({ config: { maxEntries: 3 } });
    const up = new CountingUpstream();
    for (const p of ["alpha one", "bravo two", "charlie three"]) await cache.through(request(p), up.call);
    await cache.through(request("alpha one"), up.call); // alpha is now the most recently used
    await cache.through(request("delta four"), up.call); // evicts bravo
    expect(cache.stats().entries).toBe(3);
    expect(up.calls).toBe(4);
    expect((await cache.through(request("alpha one"), up.call)).hit?.layer).toBe("exact");
    expect((await cache.through(request("bravo two"), up.call)).hit).toBeNull();
    cache.flush();
    expect(store.sqlite.query("SELECT count(*) AS n FROM cache_entries").get()).toEqual({ n: 3 });
  });

  test("answers too large for an entry are not cached", async () => {
    const { cache } = await openCache({ config: { maxEntryBytes: 1024 } });
    const lookup = await cache.lookup(request("Write a long essay"));
    if (lookup.kind !== "miss") throw new Error("expected a miss");
    const big: CachedAnswer = {
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "x".repeat(2000) }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 500 },
    };
    expect(lookup.fill.complete(big)).toBe(false);
    expect(cache.stats().entries).toBe(0);
  });

  test("a new instance on the same store keeps the cache, exact and semantic", async () => {
    const dir = tempDir();
    const up = new CountingUpstream();
    const firstStore = dir.open();
    const { cache: first } = await openCache({ store: firstStore });
    await first.through(request("What is the capital of France?"), up.call);
    await first.through(request("How do I reset my password?", { appId: "app_b" }), up.call);
    first.flush();
    firstStore.close();

    const { cache: second } = await openCache({ store: dir.open() });
    expect(second.stats().entries).toBe(2);
    // The exact layer answers at once; the vector index is rebuilt in the background.
    expect((await second.lookup(request("What is the capital of France?"))).kind).toBe("hit");
    await second.indexed();
    expect((await second.through(request("What is the capital of France?"), up.call)).hit?.layer).toBe("exact");
    expect((await second.through(request("how can I reset my password", { appId: "app_b" }), up.call)).hit?.layer).toBe("semantic");
    expect((await second.through(request("how can I reset my password", { appId: "app_a" }), up.call)).hit).toBeNull();
    expect(up.calls).toBe(3);
  });

  test("a rebuilt index of hundreds of entries finds paraphrases again", async () => {
    const dir = tempDir();
    const up = new CountingUpstream();
    const firstStore = dir.open();
    const { cache: first } = await openCache({ store: firstStore });
    for (let i = 0; i < 300; i++) await first.through(request(`Tell me fact number ${i} about the moon`), up.call);
    await first.through(request("How do I reset my password?"), up.call);
    first.flush();
    firstStore.close();
    const { cache: second } = await openCache({ store: dir.open() });
    await second.indexed();
    expect(second.stats().partitions).toBe(1);
    expect((await second.through(request("how can I reset my password"), up.call)).hit?.layer).toBe("semantic");
  });

  test("vectors of another embedding model are not reused after a restart", async () => {
    const { cache, store } = await openCache();
    const up = new CountingUpstream();
    await cache.through(request("What is the capital of France?"), up.call);
    cache.flush();
    const other: Embedder = {
      dimensions: 256,
      embed: async (text) => (await new LexicalEmbedder().embed(`${text} other model`)).map((x, i) => (i % 2 ? -x : x)),
    };
    const { cache: reopened } = await openCache({ store, embedder: other });
    await reopened.indexed();
    expect(reopened.stats().entries).toBe(1);
    expect(reopened.stats().partitions).toBe(0);
    expect((await reopened.through(request("What is the capital of France?"), up.call)).hit?.layer).toBe("exact");
  });
});

describe("what gets cached", () => {
  test("a failed upstream call caches nothing", async () => {
    const { cache, store } = await openCache();
    const up = new CountingUpstream(0, 1);
    await expect(cache.through(request("Flaky question"), up.call)).rejects.toThrow("upstream failure 1");
    const retry = await cache.through(request("Flaky question"), up.call);
    expect(retry.hit).toBeNull();
    expect(retry.answer.choices[0]!.message.content).toBe("answer #2");
    cache.flush();
    expect(store.sqlite.query("SELECT count(*) AS n FROM cache_entries").get()).toEqual({ n: 1 });
  });

  test("a truncated answer (finish_reason length) is not cached", async () => {
    const { cache } = await openCache();
    const lookup = await cache.lookup(request("Tell me a story"));
    if (lookup.kind !== "miss") throw new Error("expected a miss");
    const cut: CachedAnswer = {
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "Once upon" }, finish_reason: "length" }],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    };
    expect(lookup.fill.complete(cut)).toBe(false);
    expect((await cache.lookup(request("Tell me a story"))).kind).toBe("miss");
  });

  test("non-deterministic requests bypass the cache unless the client opts in", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream();
    const hot = request("Write a poem about autumn", { params: { temperature: 1.5 } });
    expect((await cache.lookup(hot)).kind).toBe("bypass");
    expect((await cache.lookup(request("Write a poem about autumn", { params: { temperature: 0, n: 3 } }))).kind).toBe("bypass");
    expect((await cache.lookup(request("Write a poem about autumn", { enabled: false }))).kind).toBe("bypass");
    await cache.through(hot, up.call);
    await cache.through(hot, up.call);
    expect(up.calls).toBe(2);
    const optedIn = { ...hot, allowNondeterministic: true };
    await cache.through(optedIn, up.call);
    expect((await cache.through(optedIn, up.call)).hit?.layer).toBe("exact");
    expect(up.calls).toBe(3);
  });

  test("a refusal or an empty answer is not cached; an answer that is only tool calls is", async () => {
    const { cache } = await openCache();
    const answer = (message: CachedAnswer["choices"][number]["message"], finish: "stop" | "tool_calls" = "stop"): CachedAnswer => ({
      model: "m",
      choices: [{ index: 0, message, finish_reason: finish }],
      usage: { prompt_tokens: 5, completion_tokens: 0 },
    });
    const fill = async (prompt: string) => {
      const lookup = await cache.lookup(request(prompt));
      if (lookup.kind !== "miss") throw new Error("expected a miss");
      return lookup.fill;
    };
    // OpenAI's wire format: a refusal has its text in `refusal` and no content.
    const refusal = { role: "assistant" as const, content: "", refusal: "I can't help with that." };
    expect((await fill("Tell me about a dangerous thing")).complete(answer(refusal))).toBe(false);
    expect((await fill("Tell me about another dangerous thing")).complete(answer({ ...refusal, content: "I'm sorry, I can't help with that." }))).toBe(false);
    expect((await fill("Say nothing")).complete(answer({ role: "assistant", content: "  \n" }))).toBe(false);
    const call = { id: "c1", type: "function" as const, function: { name: "lookup", arguments: "{}" } };
    expect((await fill("Look it up")).complete(answer({ role: "assistant", content: "", tool_calls: [call] }, "tool_calls"))).toBe(true);
    expect(cache.stats().entries).toBe(1);
    expect((await cache.lookup(request("Tell me about a dangerous thing"))).kind).toBe("miss");
    expect((await cache.lookup(request("Say nothing"))).kind).toBe("miss");
  });

  test("a request without a temperature is cached by default, and bypasses when the operator says so unless the client opts in", async () => {
    const unset = request("Name three primes", { params: {} });
    const { cache } = await openCache();
    expect((await cache.lookup(unset)).kind).toBe("miss");
    const { cache: strict } = await openCache({ config: { cacheUnsetTemperature: false } });
    expect((await strict.lookup(unset)).kind).toBe("bypass");
    expect((await strict.lookup({ ...unset, allowNondeterministic: true })).kind).toBe("miss");
    expect((await strict.lookup(request("Name three primes", { params: { temperature: 0.7 } }))).kind).toBe("miss");
  });

  test("the operator can opt every request in", async () => {
    const { cache } = await openCache({ config: { allowNondeterministic: true } });
    expect((await cache.lookup(request("Write a poem", { params: { temperature: 1.5 } }))).kind).toBe("miss");
  });
});

describe("coalescing", () => {
  test("50 concurrent identical requests make one upstream call", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream(30);
    const results = await Promise.all(Array.from({ length: 50 }, () => cache.through(request("What is the boiling point of water?"), up.call)));
    expect(up.calls).toBe(1);
    expect(results.filter((r) => r.hit === null)).toHaveLength(1);
    expect(results.filter((r) => r.hit?.layer === "coalesced")).toHaveLength(49);
    for (const r of results) expect(r.answer.choices[0]!.message.content).toBe("answer #1");
  });

  test("when the leader fails, the waiters go upstream themselves and get answers", async () => {
    const { cache } = await openCache();
    const up = new CountingUpstream(20, 1);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => cache.through(request("Flaky shared question"), up.call)));
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(1);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect(up.calls).toBe(5);
  });

  test("waiters stop waiting for a slow leader after the timeout", async () => {
    const { cache } = await openCache({ config: { coalesceTimeoutMs: 20 } });
    const up = new CountingUpstream();
    // The leader's upstream call answers only when the test lets it: the follower can come back only by
    // giving up on the leader, however slowly the machine runs.
    let release!: () => void;
    let atUpstream!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const leaderAtUpstream = new Promise<void>((r) => (atUpstream = r));
    const leader = cache.through(request("Slow question"), async () => {
      atUpstream();
      await held;
      return up.call();
    });
    await leaderAtUpstream;
    const follower = await cache.through(request("Slow question"), up.call);
    expect(follower.hit).toBeNull();
    expect(up.calls).toBe(1);
    release();
    await leader;
    expect(up.calls).toBe(2);
  });

  test("a leader that never reports back does not stall later requests", async () => {
    const { cache } = await openCache({ config: { coalesceTimeoutMs: 20 } });
    const abandoned = await cache.lookup(request("Forgotten question"));
    expect(abandoned.kind).toBe("miss");
    await Bun.sleep(30);
    expect(cache.stats().inFlight).toBe(0);
    expect((await cache.lookup(request("Forgotten question"))).kind).toBe("miss");
  });
});

/**
 * Nodes' caches joined by an in-memory stand-in for RedisCachePeers: one claim per key, renewals
 * recorded, and `lapse` ending a claim as Redis does when its node stops renewing it.
 */
class PeerHub {
  readonly claims = new Map<string, string>();
  readonly holding = new Set<string>();
  private readonly watchers = new Map<string, Set<() => void>>();
  private readonly caches = new Map<string, SemanticCache>();

  join(node: string, cache: SemanticCache): void {
    this.caches.set(node, cache);
    const others = () => [...this.caches].filter(([n]) => n !== node).map(([, c]) => c);
    const unclaim = (k: string) => this.claims.get(k) === node && this.claims.delete(k);
    cache.connect({
      lead: async (k) => !this.claims.has(k) && !!this.claims.set(k, node),
      hold: (k) => {
        this.holding.add(`${node} ${k}`);
        return () => this.holding.delete(`${node} ${k}`);
      },
      watch: (k, lapsed) => {
        const set = this.watchers.get(k) ?? new Set();
        this.watchers.set(k, set.add(lapsed));
        return () => set.delete(lapsed);
      },
      share: (row) => {
        unclaim(row.exactKey);
        for (const c of others()) c.receive(row);
      },
      release: (k) => {
        unclaim(k);
        for (const c of others()) c.released(k);
      },
    });
  }

  /** Lookups waiting on the claim of `k`. */
  waiting(k: string): number {
    return this.watchers.get(k)?.size ?? 0;
  }

  /** The claim's node died: its lease ran out. */
  lapse(k: string): void {
    this.claims.delete(k);
    for (const w of this.watchers.get(k) ?? []) w();
  }
}

describe("coalescing across nodes", () => {
  test("a waiting node gets the leader's entry; the leader holds its claim only while its call runs", async () => {
    const hub = new PeerHub();
    const [a, b] = [(await openCache()).cache, (await openCache()).cache];
    hub.join("a", a);
    hub.join("b", b);
    const req = request("Which planet is largest?");
    const first = await a.lookup(req);
    expect(first.kind).toBe("miss");
    const key = [...hub.claims.keys()][0]!;
    expect([hub.claims.get(key), [...hub.holding]]).toEqual(["a", [`a ${key}`]]);
    const waiting = b.lookup(req);
    while (hub.waiting(key) === 0) await Bun.sleep(1);
    if (first.kind === "miss") first.fill.complete(await new CountingUpstream().call());
    expect(await waiting).toMatchObject({ kind: "hit", hit: { layer: "coalesced" } });
    expect([hub.claims.size, hub.holding.size]).toEqual([0, 0]);
  });

  test("when the leader's claim lapses (its node died), one waiting node claims the key and calls upstream; the others wait for it", async () => {
    const hub = new PeerHub();
    const [a, b, c] = [(await openCache()).cache, (await openCache()).cache, (await openCache()).cache];
    hub.join("a", a);
    hub.join("b", b);
    hub.join("c", c);
    const req = request("How many moons has Mars?");
    expect((await a.lookup(req)).kind).toBe("miss");
    const key = [...hub.claims.keys()][0]!;
    const onB = b.lookup(req);
    const onC = c.lookup(req);
    while (hub.waiting(key) < 2) await Bun.sleep(1);
    // Node a dies mid-call: it never completes its fill, and its lease runs out.
    hub.lapse(key);
    const taken = await Promise.race([onB, onC]);
    expect(taken.kind).toBe("miss");
    const claimant = hub.claims.get(key)!;
    expect(["b", "c"]).toContain(claimant);
    expect(hub.holding.has(`${claimant} ${key}`)).toBe(true);
    if (taken.kind === "miss") taken.fill.complete(await new CountingUpstream().call());
    const [rb, rc] = await Promise.all([onB, onC]);
    expect([rb, rc].filter((r) => r.kind === "hit" && r.hit.layer === "coalesced")).toHaveLength(1);
    // Only the dead node's renewal is left (its timer died with it).
    expect([...hub.holding]).toEqual([`a ${key}`]);
  });
});

describe("replay", () => {
  test("stream deltas of a cached answer rebuild its content and end with the finish reason", () => {
    const content = "Paris is the capital of France. It has been the capital since the 10th century, with short interruptions.";
    const deltas = replayDeltas(
      {
        model: "m",
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 1, completion_tokens: 20 },
      },
      16,
    );
    expect(deltas[0]!.delta.role).toBe("assistant");
    expect(deltas.map((d) => d.delta.content ?? "").join("")).toBe(content);
    expect(deltas.length).toBeGreaterThan(4);
    expect(deltas.at(-1)).toEqual({ index: 0, delta: {}, finish_reason: "stop" });
  });
});

describe("embeddingText", () => {
  test("wordings of one question frame embed as one text; another question word does not", () => {
    const how = embeddingText("How do I reset my password?");
    expect(how).toBe("how reset my password?");
    for (const p of [
      "What's the way to reset my password?",
      "Hi! How can I reset my password? Thanks",
      "how to   reset my password?",
      "Is there a way to reset my password?",
    ])
      expect(embeddingText(p)).toBe(how);
    expect(embeddingText("Why do I reset my password?")).not.toBe(how);
    expect(embeddingText("How did I reset my password?")).not.toBe(how);
  });
  test("a prompt past the semantic layer's length is only folded", () => {
    const long = `What's the way to ${"reset my  password ".repeat(60)}?`;
    expect(embeddingText(long)).toBe(long.replace(/\s+/g, " ").trim());
  });
});
