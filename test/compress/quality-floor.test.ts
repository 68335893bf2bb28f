import { describe, expect, test } from "bun:test";
import { compressMessages, compressWithQualityFloor, promptText, type QualityScorer } from "../../src/pipeline/compress";
import type { ChatMessage } from "../../src/core/messages";

const messages: ChatMessage[] = [
  {
    role: "user",
    content:
      "Hello! I was wondering if you could possibly help me write a short story about a lighthouse keeper. Basically, the story is going to be about the loneliness of the keeper in the winter, and the story is going to be read by the children of the village at the school. The keeper is really very old and the lighthouse is on the edge of the island in the north of the sea. Thanks in advance!",
  },
];

/** A scorer that rates by how much of the original's length is left: harsher compression scores lower. */
const byLengthKept: QualityScorer = (original, compressed) => (100 * compressed.length) / original.length;

describe("compressWithQualityFloor", () => {
  test("keeps the requested level when its score clears the floor", async () => {
    const out = await compressWithQualityFloor(messages, { aggressiveness: 1, skipRules: [], qualityFloor: 10 }, byLengthKept);
    const direct = compressMessages(messages, { aggressiveness: 1, skipRules: [] });
    expect(out.rulesUndone).toEqual([]);
    expect(out.messages).toEqual(direct.messages);
    expect(out.qualityScore).toBeCloseTo(byLengthKept(promptText(messages), promptText(direct.messages)) as number, 6);
  });

  test("undoes the rule that costs the score and keeps the others' edits", async () => {
    // A scorer that objects only to the greeting going: undoing pleasantries clears the floor, intent's edit stays.
    const scorer: QualityScorer = (_original, compressed) => (compressed.startsWith("Hello!") ? 100 : 50);
    const out = await compressWithQualityFloor(messages, { aggressiveness: 1, skipRules: [], qualityFloor: 85 }, scorer);
    expect(out.rulesUndone).toEqual(["pleasantries"]);
    expect(out.rulesApplied).toContain("intent");
    expect(out.messages[0]!.content).toStartWith("Hello! Write a short story");
    expect(out.qualityScore).toBe(100);
  });

  test("backs off rule by rule and reports the score of what is sent", async () => {
    const seen: number[] = [];
    const scorer: QualityScorer = async (original, compressed) => {
      const score = (100 * compressed.length) / original.length;
      seen.push(score);
      return score;
    };
    const full = byLengthKept(promptText(messages), promptText(compressMessages(messages, { aggressiveness: 1, skipRules: [] }).messages)) as number;
    const floor = full + 1;
    const out = await compressWithQualityFloor(messages, { aggressiveness: 1, skipRules: [], qualityFloor: floor }, scorer);
    expect(out.rulesUndone.length).toBeGreaterThan(0);
    expect(out.qualityScore).toBeGreaterThanOrEqual(floor);
    expect(out.qualityScore).toBeCloseTo(byLengthKept(promptText(messages), promptText(out.messages)) as number, 6);
    expect(out.compressionRatio).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(1);
  });

  test("when nothing clears the floor the original prompt is sent, scored 100", async () => {
    const out = await compressWithQualityFloor(messages, { aggressiveness: 0.5, skipRules: [], qualityFloor: 100 }, () => 0);
    expect(out.messages).toEqual(messages);
    expect(out.qualityScore).toBe(100);
    expect(out.compressionRatio).toBe(0);
    expect(out.rulesApplied).toEqual([]);
  });

  test("a scorer that returns no number is an error, not a silent pass", async () => {
    await expect(compressWithQualityFloor(messages, { aggressiveness: 0.5, skipRules: [] }, () => Number.NaN)).rejects.toThrow(TypeError);
  });

  test("a floor outside 0..100 is refused", async () => {
    await expect(compressWithQualityFloor(messages, { aggressiveness: 0.5, skipRules: [], qualityFloor: 150 }, byLengthKept)).rejects.toThrow(RangeError);
  });

  test("the default floor is 85", async () => {
    const out = await compressWithQualityFloor(messages, { aggressiveness: 1, skipRules: [] }, () => 84);
    expect(out.qualityScore).toBe(100);
    expect(out.messages).toEqual(messages);
  });
});
