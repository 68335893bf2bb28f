import type { ChatMessage } from "../core/messages";
import type { PassThroughParams } from "../providers/types";

/** The parsed, defaulted body of POST /v1/complete (seed 2.1, 2.2). */
export interface SvcOptions {
  compress: boolean;
  route: boolean;
  cache: boolean;
  /** Accept a cached answer even for a request that asks for variety (temperature above the limit, n > 1). */
  cache_nondeterministic: boolean;
  score: boolean;
  budget_id?: string;
  mask_pii: boolean;
  max_aggressiveness: number;
  skip_rules: string[];
  conversation_id?: string;
  agent_run_id?: string;
  protocol_id?: string;
  max_turns_to_keep?: number;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  model: string;
  max_tokens: number;
  stream: boolean;
  svc_options: SvcOptions;
  params: PassThroughParams;
}
