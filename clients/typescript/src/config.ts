import { MissingApiKeyError } from "./errors.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/** Where the key and address come from: the options first, then (outside browsers) the environment. */
export interface ConnectionOptions {
  /** Default: `SVC_API_KEY` (never read in a browser). */
  apiKey?: string;
  /** The server's root, e.g. `https://svc.example.com`. Default: `SVC_BASE_URL`, else http://127.0.0.1:8080. */
  baseURL?: string;
}

/**
 * An environment variable in Node, Bun and Deno; undefined in a browser, where a key must never come
 * from a bundler's inlined `process.env`, only from an explicit option.
 */
function envVar(name: string): string | undefined {
  const g = globalThis as { window?: unknown; document?: unknown; process?: { env?: Record<string, string | undefined> } };
  if (g.window !== undefined && g.document !== undefined) return undefined;
  const v = g.process?.env?.[name];
  return v ? v : undefined;
}

export function resolveConnection(o: ConnectionOptions): { apiKey: string; baseURL: string } {
  const apiKey = o.apiKey ?? envVar("SVC_API_KEY");
  if (!apiKey) throw new MissingApiKeyError();
  const baseURL = (o.baseURL ?? envVar("SVC_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  return { apiKey, baseURL };
}
