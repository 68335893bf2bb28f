import { validationError } from "../../core/errors";

/** The body of a resource's POST/PUT/PATCH: a JSON object with only the named fields. */
export function objectBody(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("body", "must be a JSON object");
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw validationError(k, `unknown field; allowed: ${allowed.join(", ")}`);
  return body as Record<string, unknown>;
}

export function nameField(b: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = b[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw validationError(field, "required, a non-empty string");
  if (v.length > 200) throw validationError(field, "at most 200 characters");
  return v;
}

/**
 * An amount of USD in integer micro-dollars: a finite number from 0 to `max`. A billion dollars is far
 * beyond any team's budget and keeps every sum of micro-dollars an exact integer in a double.
 */
export const MAX_USD = 1_000_000_000;

export function usdField(b: Record<string, unknown>, field: string, required: boolean): number | undefined {
  const v = b[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) throw validationError(field, "required, a number of USD");
  if (v < 0) throw validationError(field, "must not be negative");
  if (v > MAX_USD) throw validationError(field, `must be at most ${MAX_USD} USD`);
  return Math.round(v * 1e6);
}

export function countField(b: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw validationError(field, `must be an integer from ${min} to ${max}`);
  return v;
}
