/**
 * Compile-time half of the drift check: `tsc --noEmit` (CI's typecheck, and drift.test.ts, which runs
 * tsc on this file alone) fails when the server's svc_options, svc_meta, error codes or the record of
 * a resource (keys, budgets, agent runs, conversations, protocols, usage rows) differ from the
 * TypeScript client's in any field's name, optionality or type.
 */
import type { KeyRecordView } from "../../src/auth/key-record";
import type { ErrorCode as ServerErrorCode } from "../../src/core/errors";
import type { SvcOptions as ServerSvcOptions } from "../../src/pipeline/request";
import type { SvcMeta as ServerSvcMeta } from "../../src/pipeline/meta";
import type { BudgetView } from "../../src/accounting/budgets";
import type { RunView } from "../../src/accounting/agent-runs";
import type { BudgetPeriod as ServerBudgetPeriod } from "../../src/store/spend-store";
import type { UsageGroup as ServerUsageGroup, UsageRow as ServerUsageRow } from "../../src/store/usage-query";
import type { ConversationView } from "../../src/pipeline/context/conversations";
import type { ProtocolRecord } from "../../src/pipeline/context/protocols";
import type {
  AgentRun,
  Budget,
  BudgetPeriod,
  Conversation,
  ErrorCode,
  KeyRecord,
  Protocol,
  SvcMeta,
  SvcOptions,
  UsageGroup,
  UsageRow,
} from "../../clients/typescript/src/index.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// The server's SvcOptions is the parsed body with defaults filled in; the client's leaves every field
// optional. With optionality set aside they must be the same type.
export type SvcOptionsMatch = Expect<Equal<Required<SvcOptions>, Required<ServerSvcOptions>>>;
export type SvcMetaMatch = Expect<Equal<SvcMeta, ServerSvcMeta>>;
export type KeyRecordMatch = Expect<Equal<KeyRecord, KeyRecordView>>;
export type ErrorCodesMatch = Expect<Equal<ErrorCode, ServerErrorCode>>;
export type BudgetMatch = Expect<Equal<Budget, BudgetView>>;
export type BudgetPeriodMatch = Expect<Equal<BudgetPeriod, ServerBudgetPeriod>>;
export type AgentRunMatch = Expect<Equal<AgentRun, RunView>>;
export type ConversationMatch = Expect<Equal<Conversation, ConversationView>>;
export type ProtocolMatch = Expect<Equal<Protocol, ProtocolRecord>>;
export type UsageRowMatch = Expect<Equal<UsageRow, ServerUsageRow>>;
export type UsageGroupMatch = Expect<Equal<UsageGroup, ServerUsageGroup>>;
