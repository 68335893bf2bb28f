import type { PiiSpan } from "../optimize-types";
import type { CompletionRequest } from "../request";
import { ALL_TYPES } from "./detect";
import { maskMessages } from "./mask";
import { PlaceholderMap } from "./placeholders";
import { PII_TYPES, type PiiType } from "./types";

/** A request as it goes on when `svc_options.mask_pii` asked for masking. */
export interface MaskedRequest {
  /** The request with its messages masked (the same object when nothing was found or masking is off). */
  req: CompletionRequest;
  /** What was found: type, message index, offsets in the original content. */
  found: PiiSpan[];
  masked: boolean;
  /** The placeholders: holds the values. Never logged, cached or returned. */
  map: PlaceholderMap;
}

/** The detector types a setting names (`SVC_PII_TYPES`, comma-separated; the config checks the names). */
export function piiTypesOf(setting: string): ReadonlySet<PiiType> {
  const names = setting
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return names.length === 0 ? ALL_TYPES : new Set(PII_TYPES.filter((t) => names.includes(t)));
}

/**
 * Masks the request's messages when it asked for it, continuing `map` (a conversation's earlier
 * placeholders) so values seen before keep their placeholders.
 */
export function maskRequest(req: CompletionRequest, enabled: ReadonlySet<PiiType> = ALL_TYPES, map = new PlaceholderMap()): MaskedRequest {
  if (!req.svc_options.mask_pii) return { req, found: [], masked: false, map };
  const r = maskMessages(req.messages, map, enabled);
  return { req: r.masked ? { ...req, messages: r.messages } : req, found: r.found, masked: r.masked, map };
}
