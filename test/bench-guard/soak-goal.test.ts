import { describe, expect, test } from "bun:test";
import { evaluateGoals } from "../../bench/lib/goals";
import type { BenchResults, SoakSegment } from "../../bench/lib/results";
import { fittedSlopePerMin } from "../../bench/lib/stats";

const readings = (perMinute: number, seconds: number[]) => seconds.map((s) => ({ s, value: 50 + (perMinute * s) / 60 }));

describe("the soak's heap slope", () => {
  test("is the least-squares growth per minute", () => {
    expect(fittedSlopePerMin(readings(0.5, [90, 100, 110, 120, 130, 140, 150, 160, 170]), 3, 30)).toBeCloseTo(0.5, 9);
    expect(fittedSlopePerMin(readings(-2, [0, 60, 120]), 3, 30)).toBeCloseTo(-2, 9);
  });

  test("is NaN, not 0, when the readings are too few or too close together to fit", () => {
    expect(fittedSlopePerMin([], 3, 30)).toBeNaN();
    expect(fittedSlopePerMin(readings(5, [90, 100]), 3, 30)).toBeNaN();
    expect(fittedSlopePerMin(readings(5, [90, 95, 100]), 3, 30)).toBeNaN();
  });
});

describe("the 'memory flat' goal", () => {
  const segment = (heapSlopeMiBPerMin: number) => ({ heapSlopeMiBPerMin }) as SoakSegment;
  const memoryGoal = (soak: SoakSegment[]) => {
    const goals = evaluateGoals({ latency: {}, throughput: {}, ttft: {}, soak } as unknown as BenchResults);
    return goals.find((g) => g.goal.startsWith("memory flat"))!;
  };

  test("is met only when every segment's heap grows under 1 MiB/min", () => {
    expect(memoryGoal([segment(0.02), segment(-0.4), segment(0.9)]).met).toBe(true);
    expect(memoryGoal([segment(0.02), segment(1.3)]).met).toBe(false);
  });

  test("reads 'not measured' when a segment has no slope or there was no soak", () => {
    expect(memoryGoal([segment(0.02), segment(NaN)]).met).toBeUndefined();
    expect(memoryGoal([]).met).toBeUndefined();
  });
});
