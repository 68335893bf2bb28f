import { expect } from "bun:test";
import { SvcError } from "../../clients/typescript/src/index.ts";

/** The error a call rejects with (fails the test if it resolves). */
export async function failure(p: Promise<unknown>): Promise<SvcError> {
  const r = await p.then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.v).slice(0, 200)}`);
  expect(r.e).toBeInstanceOf(SvcError);
  return r.e as SvcError;
}

/** The error is of the class, code and status, and carries the request id svc gave it. */
export function expectError(e: SvcError, Class: typeof SvcError, code: string, status: number) {
  expect(e).toBeInstanceOf(Class);
  expect({ code: e.code, status: e.status }).toEqual({ code, status });
  expect(e.requestId).toMatch(/^svc_req_/);
}
