/**
 * Compile-time half of the drift check: `tsc --noEmit` (CI's typecheck, and drift.test.ts, which runs
 * tsc on this file alone) fails when the server's svc_options, svc_meta, key record or error codes
 * differ from the TypeScript client's in any field's name, optionality or type.
 */
import type { KeyRecordView } from "../../src/auth/key-record";
import type { ErrorCode as ServerErrorCode } from "../../src/core/errors";
import type { SvcOptions as ServerSvcOptions } from "../../src/pipeline/request";
import type { SvcMeta as ServerSvcMeta } from "../../src/pipeline/meta";
import type { ErrorCode, KeyRecord, SvcMeta, SvcOptions } from "../../clients/typescript/src/index.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// The server's SvcOptions is the parsed body with defaults filled in; the client's leaves every field
// optional. With optionality set aside they must be the same type.
export type SvcOptionsMatch = Expect<Equal<Required<SvcOptions>, Required<ServerSvcOptions>>>;
export type SvcMetaMatch = Expect<Equal<SvcMeta, ServerSvcMeta>>;
export type KeyRecordMatch = Expect<Equal<KeyRecord, KeyRecordView>>;
export type ErrorCodesMatch = Expect<Equal<ErrorCode, ServerErrorCode>>;
