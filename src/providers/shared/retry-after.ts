/**
 * How long a provider asked us to wait, in ms, from `retry-after-ms` (OpenAI) or `Retry-After` (seconds or
 * an HTTP date, RFC 9110 §10.2.3). Undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: { get(name: string): string | null }, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
