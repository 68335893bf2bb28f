import type { Stage } from "../stage";
import { usageRecordableStage } from "./usage-recordable";
import { quotaStage } from "./quota";
import { agentRunStage } from "./agent-run";
import { budgetStage } from "./budget";
import { cacheFillStage } from "./cache-fill";
import { piiStage } from "./pii";

/**
 * The completion path's stages, in order: admitted first to last, committed first to last, rolled
 * back last to first. A new stage is a file in this folder and one line here.
 */
export const STAGES = [usageRecordableStage, quotaStage, piiStage, agentRunStage, budgetStage, cacheFillStage] as const;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The services the stages ask for, together. */
export type StageServices = UnionToIntersection<Exclude<Parameters<(typeof STAGES)[number]>[0], undefined>>;

export function buildStages(s: StageServices): Stage[] {
  return STAGES.map((make) => make(s) as Stage);
}
