import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { HashFeaturizer, splitWords, wordBag } from "../../src/ml/features";

/** The words of `text` (splitWords) as strings. */
function words(text: string, maxWordLength: number): string[] {
  const { lower, count, starts, lengths } = splitWords(text, maxWordLength);
  return Array.from({ length: count }, (_, i) => lower.slice(starts[i]!, starts[i]! + lengths[i]!));
}
import { DEFAULT_MODELS_DIR } from "../../src/ml/load";

describe("HashFeaturizer", () => {
  test("gives the bag the shipped embedding was trained on: same ids, weights and order", async () => {
    // The shipped weights were trained on exactly these features, in this order (training sums in bag
    // order); the digest was taken from the featurizer the model was trained with. A faster featurizer
    // must keep it.
    const cfg = (await Bun.file(join(DEFAULT_MODELS_DIR, "embedding", "features.json")).json()).features;
    const bag = new HashFeaturizer(cfg).featurize(
      "Naïve users ask: how do I reset my password on Café-Über's portal? Don't email 3 times; supercalifragilisticexpialidocious ids like x9 stay.",
    );
    const digest = new Bun.CryptoHasher("sha256")
      .update(new Uint8Array(bag.ids.buffer, 0, bag.length * 4))
      .update(new Uint8Array(bag.weights.buffer, 0, bag.length * 4))
      .digest("hex");
    expect(bag.length).toBe(262);
    expect(digest).toBe("083cdeb7b718fb4f47098e404bba2e40b130305a391f34459714d7de721dad27");
  });

  test("added out of bag order, every bucket gets the same weight to the bit", async () => {
    const cfg = (await Bun.file(join(DEFAULT_MODELS_DIR, "embedding", "features.json")).json()).features;
    const f = new HashFeaturizer(cfg);
    // Repeated n-grams within a word ("ana" in "banana"), long words cut, words of other scripts.
    const text = "Banana bananas anana; Naïve Café-Über supercalifragilisticexpialidocious x9 日本語 the the THE ok";
    const split = splitWords(text, cfg.maxWordLength);
    const weights = (inBagOrder: boolean) => {
      const acc = new Float32Array(cfg.buckets);
      const touched = new Int32Array(cfg.buckets);
      const n = f.addWords(split, acc, touched, inBagOrder);
      return { ids: [...touched.subarray(0, n)].sort((a, b) => a - b), acc };
    };
    const [inOrder, asHashed] = [weights(true), weights(false)];
    expect(asHashed.ids).toEqual(inOrder.ids);
    expect(Buffer.from(asHashed.acc.buffer).equals(Buffer.from(inOrder.acc.buffer))).toBe(true);
  });

  test("a word too short for any n-gram still counts as a word", async () => {
    const cfg = (await Bun.file(join(DEFAULT_MODELS_DIR, "embedding", "features.json")).json()).features;
    const f = new HashFeaturizer({ ...cfg, charNgrams: { min: 4, max: 5 } });
    const bag = f.featurize("a");
    // "<a>" is 3 characters: no 4- or 5-gram, only the word's own bucket with weight 1.
    expect(bag.length).toBe(1);
    expect(bag.weights[0]).toBe(1);
  });
});

describe("the shared split of the last text", () => {
  test("words and the word bag are the same whatever was split before, and the length cut is part of the key", () => {
    const text = "Supercalifragilisticexpialidocious words, Kubernetes and k8s; the same text twice.";
    const fresh = wordBag(text, 8192, 24);
    words(text, 24);
    const afterSplit = wordBag(text, 8192, 24);
    expect([...afterSplit.ids]).toEqual([...fresh.ids]);
    expect([...afterSplit.weights]).toEqual([...fresh.weights]);
    expect(words(text, 5)[0]).toBe("super");
    expect(words(text, 24)[0]).toBe("supercalifragilisticexpi");
    // The featurizer's bag is the same from the remembered split as from a fresh one.
    const f = new HashFeaturizer({ buckets: 1024, charNgrams: { min: 3, max: 5 }, charWeight: 1, maxWordLength: 24 });
    const remembered = f.featurize(text);
    const rememberedIds = [...remembered.ids.subarray(0, remembered.length)];
    const rememberedWeights = [...remembered.weights.subarray(0, remembered.length)];
    words("another text", 24);
    const again = f.featurize(text);
    expect([...again.ids.subarray(0, again.length)]).toEqual(rememberedIds);
    expect([...again.weights.subarray(0, again.length)]).toEqual(rememberedWeights);
  });
});

describe("words", () => {
  test("are the runs of letters and digits of any script, lower-cased and cut, as the embedding was trained on", () => {
    // The definition the shipped weights were trained with, written as the regex it was.
    const reference = (text: string, max: number) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.slice(0, max));
    const texts = [
      "Hello, World! x86_64 don't re-run v2.0",
      "İstanbul ǅemal ﬁx ß ΣΑΣ 日本語テキスト १२३ a\u0301b",
      "𝐀𝐁𝐂 𝟙𝟚 😀word \ud800lone \udc00low end𝐀",
      `${"a".repeat(30)} ${"𝐀".repeat(20)}`,
      "",
      " \n\t ",
    ];
    for (const text of texts) for (const max of [24, 5]) expect([...words(`${text} `, max)]).toEqual(reference(`${text} `, max));
  });
});
