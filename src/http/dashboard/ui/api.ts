const STORE = "svc.adminKey";

/** The admin key lives in this tab's sessionStorage only: never in a URL, a cookie or localStorage. */
export const session = {
  get: () => sessionStorage.getItem(STORE),
  set: (key: string) => sessionStorage.setItem(STORE, key),
  clear: () => sessionStorage.removeItem(STORE),
};

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A call to the gateway's API with the session's key in the Authorization header. */
export async function api<T>(method: string, path: string, body?: unknown, key = session.get()): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: { authorization: `Bearer ${key ?? ""}`, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiFailure(res.status, data?.error?.code ?? "HTTP_" + res.status, data?.error?.message ?? res.statusText);
  return data as T;
}

export interface KeyRecord {
  id: string;
  name: string;
  app_id: string;
  type: "live" | "test";
  prefix: string;
  last4: string;
  status: "active" | "revoked";
  scopes: string[];
  plan: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  key?: string;
}
