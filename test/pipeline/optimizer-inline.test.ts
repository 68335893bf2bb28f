import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog";
import { loadSettings } from "../../src/config/config";
import { loadModels, type Models } from "../../src/pipeline/models";
import type { OptimizeInput } from "../../src/pipeline/optimize-types";
import { Optimizer } from "../../src/pipeline/optimizer";
import { userPromptInput } from "../../src/server";

// A model task skips the worker hop when the optimizer is otherwise idle and the prompt is short; it
// goes to the pool when another task is in flight or the prompt is long. Either way the result is the same.
const dir = mkdtempSync(join(tmpdir(), "svc-optimizer-inline-"));
const settings = loadSettings({ SVC_DATA_DIR: dir, SVC_WORKERS: "1", SVC_OPTIMIZE_MEMO_ENTRIES: "0", SVC_INLINE_MODEL_MAX_CHARS: "500" });
const available = Catalog.load(settings.modelsFile).models.map((m) => m.id);
let optimizer: Optimizer;
let models: Models;

beforeAll(async () => {
  models = await loadModels();
  optimizer = await Optimizer.start(settings, models);
});
afterAll(async () => {
  await optimizer.close();
  rmSync(dir, { recursive: true, force: true });
});

function inputOf(prompt: string): OptimizeInput {
  return { ...userPromptInput(prompt, available, settings.qualityFloor), wantEmbedding: true };
}

/** Tasks the pool has finished so far. */
const pooled = () => (JSON.parse(optimizer.health().detail) as { completed: number }).completed;

const SHORT = "Hi there! I hope you are doing well. Could you possibly write a haiku about the sea? Thanks in advance!";
const OTHER = "Explain step by step why the sum of two odd numbers is always even.";
const LONG = `${"Please summarise the following meeting notes for the team and list every action item with its owner. ".repeat(6)}`;

describe("optimizer: model tasks inline while idle", () => {
  test("a short prompt with nothing else in flight runs on the event loop, not in the pool", async () => {
    const before = pooled();
    const r = await optimizer.run(inputOf(SHORT));
    expect(pooled()).toBe(before);
    expect(r.route.ok).toBe(true);
    expect(r.embedding?.length).toBeGreaterThan(0);
  });

  test("with a task in flight the next one goes to the pool", async () => {
    const before = pooled();
    await Promise.all([optimizer.run(inputOf(SHORT)), optimizer.run(inputOf(OTHER))]);
    expect(pooled()).toBe(before + 1);
  });

  test("a prompt longer than inlineModelMaxChars goes to the pool even when idle", async () => {
    expect(LONG.length).toBeGreaterThan(settings.inlineModelMaxChars);
    const before = pooled();
    await optimizer.run(inputOf(LONG));
    expect(pooled()).toBe(before + 1);
  });

  test("inlineModelMaxChars 0 sends every model task to the pool, even an empty prompt while idle", async () => {
    const off = await Optimizer.start({ ...settings, inlineModelMaxChars: 0 }, await loadModels());
    try {
      const completed = () => (JSON.parse(off.health().detail) as { completed: number }).completed;
      const before = completed();
      await off.run(inputOf(""));
      await off.run(inputOf(SHORT));
      expect(completed()).toBe(before + 2);
    } finally {
      await off.close();
    }
  });

  test("inline and pooled runs of one prompt give the same result; only the worker extracts the cache's facets", async () => {
    const inline = await optimizer.run(inputOf(OTHER));
    const [, pooledRun] = await Promise.all([optimizer.run(inputOf(SHORT)), optimizer.run(inputOf(OTHER))]);
    // On the event loop the cache extracts them when it needs them (see OptimizerDeps.extractsFacets).
    expect(inline.cacheFacets).toBeUndefined();
    expect(pooledRun.cacheFacets?.prompt).toBe(OTHER);
    const { cacheFacets: _, ...pooledRest } = pooledRun;
    expect({ ...pooledRest, embedding: Array.from(pooledRun.embedding ?? []) }).toEqual({ ...inline, embedding: Array.from(inline.embedding ?? []) });
  });
});

describe("optimizer: warm-up of the event loop's stages", () => {
  test("runs on the event loop, never in the pool, and resolves with the runs made", async () => {
    const before = pooled();
    const prompts: string[] = [];
    const runs = await optimizer.warm(5, (run) => {
      prompts.push(`${SHORT} ${run}`);
      return inputOf(prompts.at(-1)!);
    });
    expect(runs).toBe(5);
    expect(prompts).toHaveLength(5);
    expect(new Set(prompts).size).toBe(5);
    expect(pooled()).toBe(before);
  });

  test("makes no run while a model task is in flight, and the task still goes where it would", async () => {
    const before = pooled();
    const order: string[] = [];
    const task = optimizer.run(inputOf(LONG)).then(() => order.push("task"));
    const warm = optimizer.warm(2, () => {
      order.push("warm");
      return inputOf(OTHER);
    });
    await Promise.all([task, warm]);
    expect(order).toEqual(["task", "warm", "warm"]);
    expect(pooled()).toBe(before + 1);
  });

  test("stops when the optimizer closes; without the event loop's models it is a no-op", async () => {
    const own = await Optimizer.start({ ...settings, workers: 0 }, models);
    const warming = own.warm(1_000_000, () => inputOf(SHORT));
    await Bun.sleep(50);
    await own.close();
    expect(await warming).toBeLessThan(1_000_000);
    const poolOnly = await Optimizer.start(settings, undefined);
    try {
      expect(await poolOnly.warm(10, () => inputOf(SHORT))).toBe(0);
    } finally {
      await poolOnly.close();
    }
  });
});
