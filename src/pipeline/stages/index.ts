import type { Stage } from "../stage";
import { usageRecordableStage } from "./usage-recordable";
import { quotaStage } from "./quota";
import { agentRunStage } from "./agent-run";
import { budgetStage } from "./budget";
import { cacheFillStage } from "./cache-fill";
import { protocolStage } from "./protocol";
import { conversationStage } from "./conversation";
import { piiStage } from "./pii";

/**
 * The completion path's stages, in order: admitted first to last, committed first to last, rolled
 * back last to first. A new stage is a file in this folder and one line here.
 */
// The budget plans before the agent run: fitting the budget may narrow the models, and with them the
// worst case the run reserves.
// PII is masked before the protocol and the conversation join the call, so stored turns and summaries
// hold placeholders, never values, and a conversation's placeholders stay the same from turn to turn.
export const STAGES = [usageRecordableStage, quotaStage, piiStage, protocolStage, conversationStage, budgetStage, agentRunStage, cacheFillStage] as const;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** The services the stages ask for, together. */
export type StageServices = UnionToIntersection<Exclude<Parameters<(typeof STAGES)[number]>[0], undefined>>;

export function buildStages(s: StageServices): Stage[] {
  return STAGES.map((make) => make(s) as Stage);
}
