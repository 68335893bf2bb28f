import { describe, expect, test } from "bun:test";
import { decodeEmbedding, embedderSignature, encodeEmbedding } from "../../src/pipeline/cache/persistence";
import type { Embedder } from "../../src/ml/types";

describe("stored vectors", () => {
  test("read back only under the same model and embedded text: a signature written before the text changed matches none", async () => {
    const embedder: Pick<Embedder, "dimensions" | "embed"> = {
      dimensions: 4,
      embed: async (text: string) => new Float32Array([text.length % 2 ? 1 : -1, 0.5, -0.5, 0.25]),
    };
    const signature = await embedderSignature(embedder as Embedder);
    const vector = new Float32Array([0.1, 0.2, 0.3, 0.4]);
    expect(Array.from(decodeEmbedding(encodeEmbedding(signature, vector), signature, 4)!)).toEqual(Array.from(vector));
    const untagged = signature.slice(signature.indexOf(".") + 1);
    expect(decodeEmbedding(encodeEmbedding(untagged, vector), signature, 4)).toBeNull();
  });
});
