import { authenticate } from "../auth/authenticate";
import type { KeyEntry } from "../auth/key-record";
import { ApiError } from "../core/errors";
import type { Services } from "../pipeline/services";

export type AuthServices = Pick<Services, "keyIndex" | "hash">;

/** The request's key, from its Authorization header. */
export function keyOf(s: AuthServices, request: Request): KeyEntry {
  return authenticate(request.headers.get("authorization"), s.keyIndex, s.hash, Date.now());
}

/** The request's key, which must have the `admin` scope to reach `what`. */
export function adminKeyOf(s: AuthServices, request: Request, what: string): KeyEntry {
  const key = keyOf(s, request);
  if (!key.scopes.includes("admin")) throw new ApiError("FORBIDDEN", `${what} needs a key with the 'admin' scope`);
  return key;
}
