import { describe, expect, test } from "bun:test";
import { PassThrough, Readable } from "node:stream";
import { runSimilarity } from "../../src/ml/similarity-cli";
import { shippedModels } from "./shipped-models";

async function run(lines: string[]): Promise<unknown[]> {
  const m = await shippedModels();
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on("data", (c) => chunks.push(String(c)));
  await runSimilarity(Readable.from([lines.join("\n")]), out, m.embedder);
  return chunks
    .join("")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

describe("svc similarity", () => {
  test("answers every line in order; a bad line gets an error and the rest go on", async () => {
    const out = await run([
      JSON.stringify({ a: "A man is playing a guitar.", b: "A man plays the guitar." }),
      "{not json",
      JSON.stringify({ a: "hello" }),
      "",
      JSON.stringify({ a: "same text", b: "same text" }),
      JSON.stringify({ a: "A man is playing a guitar.", b: "The stock market fell sharply today." }),
    ]);
    expect(out.length).toBe(5);
    const [para, bad, missing, same, unrelated] = out as [
      { similarity: number },
      { error: { code: string; line: number } },
      { error: { message: string } },
      { similarity: number },
      { similarity: number },
    ];
    expect(bad.error.code).toBe("VALIDATION_ERROR");
    expect(bad.error.line).toBe(2);
    expect(missing.error.message).toContain("b");
    expect(same.similarity).toBeCloseTo(1, 5);
    expect(para.similarity).toBeGreaterThan(unrelated.similarity);
    for (const s of [para, same, unrelated]) expect(Math.abs(s.similarity)).toBeLessThanOrEqual(1);
  });
});
