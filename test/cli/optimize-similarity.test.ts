import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/gateway-process";

const env = { SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-cli-")) };
const lines = (out: string) =>
  out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("svc optimize", () => {
  test("one report per input line, in order; a bad line gets an error line and the rest go on", async () => {
    const input = [
      JSON.stringify({
        messages: [
          {
            role: "user",
            content: "Hello! I was wondering if you could possibly help me write a Python function that reverses a linked list. Thanks so much in advance!",
          },
        ],
      }),
      "{oops",
      JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "What is 2+2?" }], svc_options: { compress: false } }),
    ].join("\n");
    const r = await runCli(["optimize"], env, input + "\n");
    expect(r.code).toBe(0);
    const [a, bad, c] = lines(r.stdout);
    expect(a.model).toBe("claude-3-5-sonnet-20241022");
    expect(a.svc_meta.routing_reason).toBe("code_task");
    expect(a.svc_meta.compressed_tokens).toBeLessThan(a.svc_meta.original_tokens);
    expect(a.svc_meta.rules_applied.length).toBeGreaterThan(0);
    expect(a.messages[0].content).toContain("Python function that reverses a linked list");
    expect(a.svc_meta.quality_score).toBeGreaterThanOrEqual(85);
    expect(a.pii).toEqual([]);
    expect(bad.error).toMatchObject({ code: "VALIDATION_ERROR", line: 2 });
    expect(c).toMatchObject({
      model: "gpt-4o-mini-2024-07-18",
      messages: [{ role: "user", content: "What is 2+2?" }],
      svc_meta: { routing_reason: "explicit_model", compression_ratio: 0 },
    });
  });

  test("the same input gives byte-identical output", async () => {
    const input =
      JSON.stringify({
        messages: [
          {
            role: "user",
            content: "Hi there! Could you please kindly summarize the following text for me? The quarterly revenue rose 12% to $4.2M while costs fell.",
          },
        ],
      }) + "\n";
    const [x, y] = await Promise.all([runCli(["optimize"], env, input), runCli(["optimize"], env, input)]);
    expect(x.stdout).toBe(y.stdout);
    expect(lines(x.stdout)[0].messages[0].content).toContain("12% to $4.2M");
  });
});

describe("svc similarity", () => {
  test("cosine per line, -1..1, paraphrase above unrelated; bad lines get errors", async () => {
    const input = [
      JSON.stringify({ a: "How do I reset my password?", b: "how do i reset my password" }),
      "[]",
      JSON.stringify({ a: "How do I reset my password?", b: "The stock market fell sharply today." }),
    ].join("\n");
    const r = await runCli(["similarity"], env, input + "\n");
    const [same, bad, far] = lines(r.stdout);
    expect(same.similarity).toBeGreaterThan(0.95);
    expect(bad.error.line).toBe(2);
    expect(far.similarity).toBeLessThan(same.similarity);
    expect(far.similarity).toBeGreaterThanOrEqual(-1);
  });
});
