import { beforeAll, describe, expect, test } from "bun:test";
import { loadWorkload, variedPrompt, type Workload } from "../../bench/lib/workload";
import { countTokens } from "../../src/tokens/count";
import { requires } from "../support/services";

// The prompts are built from ../shared's STS sentences.
const haveShared = await requires("shared");

// Issue 8's miss goals are stated for a 300-token prompt; a benchmark that sends longer ones reports a
// slower gateway than the one users get at that size (sized from the file's head, they were 480).
describe.skipIf(!haveShared)("the benchmark's prompts", () => {
  let w: Workload;
  beforeAll(() => {
    w = loadWorkload(300);
  });

  test("the fixed prompt (relay, hit, peers) is about 300 tokens", () => {
    expect(w.fixedPromptTokens).toBeGreaterThanOrEqual(300);
    expect(w.fixedPromptTokens).toBeLessThan(340);
  });

  test("fresh prompts (cache misses) average about 300 tokens", () => {
    let total = 0;
    for (let seed = 1; seed <= 500; seed++) total += countTokens(variedPrompt(w, seed));
    const mean = total / 500;
    expect(mean).toBeGreaterThan(270);
    expect(mean).toBeLessThan(330);
  });
});
