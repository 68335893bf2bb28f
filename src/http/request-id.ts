/** `svc_req_` + a UUIDv7 without dashes: unique, and sorts by time in the ledger. */
export function newRequestId(): string {
  return "svc_req_" + Bun.randomUUIDv7().replaceAll("-", "");
}
