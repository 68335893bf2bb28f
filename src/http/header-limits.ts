import { ApiError } from "../core/errors";

export interface HeaderLimits {
  maxUrlBytes: number;
  maxHeaderBytes: number;
}

/**
 * The request's URL (path and query) over `maxUrlBytes` → 414; its header block over
 * `maxHeaderBytes` (names, values and the `: ` and CRLF around them, as on the wire) → 431; undefined
 * when within both. Bun's parser runs with a higher cap (PARSER_HEADER_BYTES in config), so these
 * limits, not Bun's bare 431, are what a client meets.
 */
export function headerLimitError(request: Request, limits: HeaderLimits): ApiError | undefined {
  const url = request.url;
  const target = url.length - url.indexOf("/", url.indexOf("//") + 2);
  if (target > limits.maxUrlBytes) return new ApiError("URI_TOO_LONG", `the URL is ${target} bytes; the limit is ${limits.maxUrlBytes}`);
  let bytes = 0;
  // Bun's toJSON, one native call, rather than forEach, which calls back into JS per header (forEach
  // was 2.2% of the relay's event-loop samples under load, bun --cpu-prof; 0.37 -> 0.28 µs median for
  // four headers in a loop) or the iterator, which makes a [name, value] array per header. Like
  // forEach it joins repeated names into one value, but for Set-Cookie, which it lists.
  const headers: Record<string, string | string[]> = request.headers.toJSON();
  for (const name in headers) {
    const value = headers[name]!;
    if (typeof value === "string") bytes += name.length + value.length + 4;
    else for (const one of value) bytes += name.length + one.length + 4;
  }
  if (bytes > limits.maxHeaderBytes) return new ApiError("HEADERS_TOO_LARGE", `the request headers are ${bytes} bytes; the limit is ${limits.maxHeaderBytes}`);
  return undefined;
}
