import type { Role } from "../messages";

/** The system prompt and the last user turn are compressed at this share of the requested level. */
export const CAREFUL_LEVEL_FACTOR = 0.8;

/** Roles whose content the compressor rewrites; tool results and tool calls pass through untouched. */
export function isCompressible(role: Role): boolean {
  return role === "user" || role === "system" || role === "assistant" || role === "developer";
}

/** System prompts and the last user turn carry the task: mistakes there cost the most. */
export function isCareful(role: Role, index: number, lastUserIndex: number): boolean {
  return role === "system" || role === "developer" || index === lastUserIndex;
}

/**
 * `max_aggressiveness` is the most any message gets: older history is compressed at the requested
 * level, careful messages at CAREFUL_LEVEL_FACTOR of it.
 */
export function effectiveLevel(requested: number, careful: boolean): number {
  return careful ? requested * CAREFUL_LEVEL_FACTOR : requested;
}
