import type { KeyEntry } from "../auth/key-record";
import type { ModelInfo } from "../catalog/catalog";
import type { CallCosts, SavedTokensBySource } from "../accounting/costs";
import type { Choice, Usage } from "../providers/types";
import type { CompletionRequest } from "./request";
import type { OptimizeResult, PiiSpan } from "./optimize-types";
import type { RoutingReason } from "./route";
import type { CacheFill } from "./cache";
import type { SvcMeta } from "./meta";
import type { Stage } from "./stage";
import type { ResolvedProtocol } from "./context/protocols";
import type { ConversationPlan } from "./context/conversations";
import type { Assembled } from "./context/frame";
import type { RememberedPrefix } from "./context/message-memo";
import type { Attempt } from "../providers/call";
import type { RunHold } from "../accounting/agent-runs";

/** Facts about the HTTP call the pipeline needs but does not own. */
export interface CallContext {
  requestId: string;
  /** performance.now() when the request arrived: the start of the overhead clock. */
  t0: number;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** The route pattern the call came in on (a metrics label). */
  route: string;
}

/**
 * performance.now() at the end of each pipeline step the call reached (0: not reached), for the
 * per-stage histograms and, when tracing is on, the spans built from them at the settle.
 */
export interface CallMarks {
  opened: number;
  admitted: number;
  optimized: number;
  lookedUp: number;
}

/** What the optimizer and routing decided, before the upstream call. */
export interface Plan {
  opt: OptimizeResult;
  candidates: ModelInfo[];
  /** The catalog model the client named; undefined for `auto`. */
  requested: ModelInfo | undefined;
  reason: RoutingReason;
  /** Set when the call named a protocol or a conversation (see context/frame.ts). */
  context?: PlanContext;
}

export interface PlanContext {
  assembled: Assembled;
  /** o200k tokens of the stable prefix as sent, framing included. */
  prefixTokens: number;
  /** o200k tokens the conversation's summary kept from this call. */
  conversationSavedTokens: number;
}

/** One call on its way through the pipeline: what it asked, what was decided, what the stages hold for it. */
export interface Call extends CallContext {
  readonly key: KeyEntry;
  /** What the client asked; a stage's `before` may replace it (the pii stage masks its messages). */
  req: CompletionRequest;
  /** Set by the pii stage: what masking found, for svc_meta.pii_masked. */
  pii?: { found: PiiSpan[]; masked: boolean };
  plan?: Plan;
  /** Set by the budget stage: the budget the call is charged on (its svc_options.budget_id, else its key's default). */
  budgetId?: string | undefined;
  /**
   * What provider calls svc made on this call's behalf cost in micro-dollars (a conversation's summary
   * step, made before the budget and the run reserve): charged to the call's budget and agent run with
   * its answer; when no answer went out, to its budget alone (a run counts only calls that answered).
   */
  sideMicros?: number;
  /** Set by the agent-run stage: what the call holds on its run, which the budget stage reserves on with its own (AgentRuns.jointly). */
  runHold?: RunHold;
  /** The most the call may cost in micro-dollars, once a stage asked (worst-case.ts). */
  worstCase?: number;
  /** Set on a cache miss: the answer is handed back through it at the settle, or it is failed. */
  fill?: CacheFill | undefined;
  /** Set by the protocol stage: the stored, compressed protocol the call prepends. */
  protocol?: ResolvedProtocol;
  /** Set by the conversation stage: the stored part of the call's context and the turns it adds. */
  conversation?: ConversationPlan;
  /** Set by the message-memo stage: the call's leading messages seen before, sent in their earlier forms. */
  remembered?: RememberedPrefix;
  /** The stages admitted so far, in list order, each with the state its `before` returned. */
  readonly held: { stage: Stage; state: unknown }[];
  /** Set by the settle: a call is settled once, whichever path ends it first. */
  settled: boolean;
  readonly marks: CallMarks;
  /** The upstream attempts, once the provider call returned (a failed call's are on its UpstreamFailure). */
  attempts?: readonly Attempt[];
  /** Set only when tracing is on: each stage's `before`, timed by admit. */
  befores?: { name: string; start: number; end: number }[];
}

/** An answer the call produced: from the provider, or from the cache. */
export interface Outcome {
  served: ModelInfo;
  /** For a stream, the choices reassembled from what was relayed. */
  choices: Choice[];
  usage: Usage;
  reason: RoutingReason;
  cacheHit: boolean;
  upstreamMs: number;
  simulated: boolean;
  /** False when the answer must not be cached: streamed tool calls arrive as fragments and are not reassembled. */
  cacheable: boolean;
  /** Top-level fields of the provider's answer passed on as they came (system_fingerprint, service_tier). */
  extra?: Record<string, unknown>;
}

/** An answer's costs, timing and svc_meta, measured once, when the answer is complete. */
export interface Priced {
  /** USD by source in costs.saved_by_source; the tokens behind it here. */
  costs: CallCosts;
  savedTokens: SavedTokensBySource;
  /** Our count of the original prompt, in the provider's units. */
  originalPromptTokens: number;
  totalMs: number;
  overheadMs: number;
  meta: SvcMeta;
}

/** How a call ended: what the settle commits or rolls back, and what its ledger row is built from. */
export type CallEnd =
  /** An answer went out: as JSON, replayed from the cache, or at the end of a stream. */
  | { kind: "answered"; path: "json" | "cache" | "stream"; outcome: Outcome; priced: Priced }
  /** No answer went out: an error before or during the upstream call, or the client gone before a chunk. */
  | { kind: "failed"; error: unknown }
  /**
   * A stream that ended early (the client gone, the provider failing, the gateway's shutdown grace
   * running out) after relaying part of an answer: the provider was paid for it, so it is charged for
   * what was delivered, with the status that says how it ended (issue 23).
   */
  | { kind: "partial"; error: unknown; outcome: Outcome; priced: Priced }
  /** A stage refused the call at admission (quota): it is not a call, and no row is written. */
  | { kind: "refused"; error: unknown };

export function openCall(key: KeyEntry, req: CompletionRequest, ctx: CallContext): Call {
  return { ...ctx, key, req, held: [], settled: false, marks: { opened: performance.now(), admitted: 0, optimized: 0, lookedUp: 0 } };
}
