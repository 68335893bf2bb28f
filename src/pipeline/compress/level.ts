import type { Role } from "../../core/messages";

/**
 * Roles whose content the compressor rewrites. Assistant turns are the model's own words, often few-shot
 * examples of the answer wanted (issue 25): they pass through byte for byte, as tool results and tool
 * calls do.
 */
export function isCompressible(role: Role): boolean {
  return role === "user" || role === "system" || role === "developer";
}

/**
 * System prompts and the last user turn carry the task: they are compressed at the requested level
 * like the rest, but never lose a sentence because another message repeats it (`repeat`).
 */
export function isCareful(role: Role, index: number, lastUserIndex: number): boolean {
  return role === "system" || role === "developer" || index === lastUserIndex;
}
