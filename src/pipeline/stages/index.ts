import type { Stage } from "../stage";
import { usageRecordableStage } from "./usage-recordable";
import { quotaStage } from "./quota";
import { agentRunStage } from "./agent-run";
import { budgetStage } from "./budget";
import { cacheFillStage } from "./cache-fill";
import { protocolStage } from "./protocol";
import { conversationStage } from "./conversation";
import { piiStage } from "./pii";
import { messageMemoStage } from "./message-memo";

/**
 * The completion path's stages, in order: admitted first to last, committed first to last, rolled
 * back last to first. A new stage is a file in this folder and one line here.
 */
// The budget plans before the agent run: fitting the budget may narrow the models, and with them the
// worst case the run reserves.
// PII is masked before the protocol and the conversation join the call, so stored turns and summaries
// hold placeholders, never values, and a conversation's placeholders stay the same from turn to turn.
export const STAGES = [
  usageRecordableStage,
  quotaStage,
  piiStage,
  protocolStage,
  conversationStage,
  messageMemoStage,
  budgetStage,
  agentRunStage,
  cacheFillStage,
] as const;

/**
 * POST /v1/embeddings' stages: billable like a completion (recordable, the key's quota, a budget and an
 * agent run), with none of what works on chat messages (PII, protocol, conversation, the answer cache).
 */
export const EMBEDDING_STAGES = [usageRecordableStage, quotaStage, budgetStage, agentRunStage] as const;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type StageList = readonly ((s: never) => unknown)[];
/** The services a list of stages asks for, together. */
type ServicesOf<L extends StageList> = UnionToIntersection<Exclude<Parameters<L[number]>[0], undefined>>;
export type StageServices = ServicesOf<typeof STAGES>;
export type EmbeddingStageServices = ServicesOf<typeof EMBEDDING_STAGES>;

export function buildStages<L extends StageList = typeof STAGES>(s: ServicesOf<L>, list: L = STAGES as unknown as L): Stage[] {
  return list.map((make) => make(s as never) as Stage);
}
