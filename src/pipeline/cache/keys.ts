import { createHash } from "node:crypto";
import type { ChatMessage } from "../messages";
import type { PassThroughParams } from "../../providers/types";
import type { CacheRequest } from "./types";

/** Bumped whenever the key layout changes, so old entries can never match new requests. */
const KEY_VERSION = 1;

/** Parameters that do not change the answer: the end-user id for abuse tracking, and usage reporting in streams. */
const PARAMS_NOT_IN_KEY: ReadonlySet<string> = new Set(["user", "stream_options"]);

/**
 * JSON with object keys sorted at every depth and undefined members dropped, so two requests that
 * differ only in key order or in absent-vs-undefined serialise to the same text.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * Message text as the key sees it. Only changes that cannot alter meaning: Unicode NFC, CRLF to LF,
 * trailing whitespace and leading blank lines. Inner whitespace stays (indentation is meaning in code).
 */
export function canonicalContent(content: string): string {
  return content.normalize("NFC").replace(/\r\n?/g, "\n").replace(/^(?:[ \t]*\n)+/, "").trimEnd();
}

function canonicalMessage(m: ChatMessage): Record<string, unknown> {
  return { role: m.role, content: canonicalContent(m.content), name: m.name, tool_call_id: m.tool_call_id, tool_calls: m.tool_calls };
}

function canonicalParams(params: PassThroughParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (!PARAMS_NOT_IN_KEY.has(k) && v !== undefined) out[k] = v;
  // `stop: "x"` and `stop: ["x"]` ask for the same thing.
  if (typeof out.stop === "string") out.stop = [out.stop];
  return out;
}

/** The hashes a request is filed under. */
export interface RequestKeys {
  /** Everything that changes the answer; equal keys mean the same request. */
  exactKey: string;
  /** Tenant, model, max_tokens and every sampling option: what a semantic match must share. */
  scopeKey: string;
  /** Every message but the last user message, system prompt included. */
  contextHash: string;
  /** The last user message when the request ends with one; only such requests are matched semantically. */
  prompt: string | null;
}

/** The prompt the semantic layer compares: the last message, canonicalised, when it is a user message without tool calls; else null. */
export function semanticPrompt(messages: readonly ChatMessage[]): string | null {
  const last = messages.at(-1);
  return last !== undefined && last.role === "user" && last.tool_calls === undefined ? canonicalContent(last.content) : null;
}

export function requestKeys(req: CacheRequest): RequestKeys {
  const scopeKey = sha256(canonicalJson({ v: KEY_VERSION, app: req.appId, model: req.model, max_tokens: req.maxTokens, params: canonicalParams(req.params) }));
  const messages = req.messages.map(canonicalMessage);
  const prompt = semanticPrompt(req.messages);
  const contextHash = sha256(canonicalJson(prompt !== null ? messages.slice(0, -1) : messages));
  const exactKey = sha256(canonicalJson({ scope: scopeKey, messages }));
  return { exactKey, scopeKey, contextHash, prompt };
}
