import type { Settings } from "../config/config";
import type { Logger } from "../log/logger";
import type { Store } from "../store/db";
import type { Catalog } from "../catalog/catalog";
import type { Plans } from "../auth/plans";
import type { KeyHasher } from "../auth/secret";
import type { KeyIndex } from "../auth/key-index";
import type { KeyService } from "../auth/key-service";
import type { Quota } from "../auth/quota";
import type { Budgets } from "../accounting/budgets";
import type { AgentRuns } from "../accounting/agent-runs";
import type { SpendStore } from "../store/spend-store";
import type { Counters } from "../store/counters";
import type { RedisLink } from "../store/redis";
import type { ProviderRegistry } from "../providers/registry";
import type { CallPolicy } from "../providers/call";
import type { Ledger } from "../accounting/ledger";
import type { Metrics } from "../metrics/metrics";
import type { SemanticCache } from "./cache";
import type { Optimizer } from "./optimizer";
import type { Protocols } from "./context/protocols";
import type { Conversations } from "./context/conversations";
import type { CallTracer } from "./trace";
import type { ConversationMaps } from "./pii/vault";
import type { ResponseStore } from "./responses/store";
import type { MessageMemo } from "./context/message-memo";

/** Something that buffers writes; shutdown and the write-behind timer walk the list of them. */
export interface Flushable {
  readonly name: string;
  /** May finish later; a failure, thrown or rejected, is logged under `name` and never ends the process. */
  flush(): void | Promise<void>;
}

/**
 * Everything a request may use, built once at start (src/gateway.ts) and never changed after. A
 * consumer asks for the narrow part it uses, `Pick<Services, "cache" | "ledger">`, never the whole
 * record, so a test builds only those.
 */
export interface Services {
  readonly version: string;
  readonly startedAt: number;
  readonly settings: Settings;
  readonly log: Logger;
  readonly store: Store;
  readonly catalog: Catalog;
  readonly plans: Plans;
  readonly hash: KeyHasher;
  readonly keyIndex: KeyIndex;
  readonly keys: KeyService;
  /** Shared counters, exact across processes on one store: quotas, budgets, agent runs. */
  readonly counters: Counters;
  /** Redis shared by every node (`SVC_REDIS_URL`), when configured. */
  readonly redis?: RedisLink;
  readonly quota: Quota;
  /** Budgets and agent runs in the store, on a connection of their own (exact across processes). */
  readonly spend: SpendStore;
  readonly budgets: Budgets;
  readonly agentRuns: AgentRuns;
  readonly providers: ProviderRegistry;
  readonly callPolicy: CallPolicy;
  readonly ledger: Ledger;
  readonly metrics: Metrics;
  /** OpenTelemetry traces, one per call; undefined unless the OTEL_* variables turn tracing on. */
  readonly tracer?: CallTracer;
  /**
   * Models some configured provider serves: what routing may choose from. Health is left to the call
   * loop, which tries candidates on a cooling-down provider last rather than not at all.
   */
  readonly servableModels: string[];
  readonly cache: SemanticCache;
  readonly optimizer: Optimizer;
  /** Stored system prompts per app (`protocol_id`), compressed once. */
  readonly protocols: Protocols;
  /** Stored conversations per app (`conversation_id`). */
  readonly conversations: Conversations;
  /** Messages' sent forms by content, for calls that resend their history without a conversation_id. */
  readonly messageMemo: MessageMemo;
  /** Responses API responses kept for previous_response_id and GET/DELETE /v1/responses/{id}. */
  readonly responses: ResponseStore;
  /** Conversations' PII placeholders, sealed under a key derived from the server secret. */
  readonly piiMaps: ConversationMaps;
  /** The server aborts it when its shutdown grace runs out and it cuts what is still open. */
  readonly shutdown: AbortController;
  /** In flush order; the log is flushed after all of them. */
  readonly flushables: readonly Flushable[];
}
