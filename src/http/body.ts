import { ApiError } from "../core/errors";

/**
 * Reads a request body as JSON, stopping as soon as it passes `limit` bytes so an oversized or
 * endless body costs no more than the limit. Any content type is read as JSON (curl's default
 * form type included): every body this API takes is JSON.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) throw new ApiError("VALIDATION_ERROR", "body: a JSON body is required", { param: "body" });
  // A declared length within the limit is read in one go (Bun enforces the declared length); only a
  // body of unknown length is streamed and counted.
  const text = Number.isFinite(declared) ? await request.text() : await readCounted(request.body, limit);
  if (text.length === 0) throw new ApiError("VALIDATION_ERROR", "body: a JSON body is required", { param: "body" });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ApiError("VALIDATION_ERROR", `body: malformed JSON (${(e as Error).message})`, { param: "body" });
  }
  const depth = nestingDepth(value, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) throw new ApiError("VALIDATION_ERROR", `body: JSON nested more than ${MAX_JSON_DEPTH} levels deep`, { param: "body" });
  return value;
}

/**
 * Deepest nesting a body may have. Every later step that walks the body recursively (validation,
 * packing for the worker, the memo's key) would overflow the stack on a body nested 20,000 deep and
 * answer 500 (issue 23); 64 is far above any real tool schema (OpenAI's structured outputs allow 10).
 */
export const MAX_JSON_DEPTH = 64;

/** The nesting depth of a parsed JSON value, walked without recursion; stops counting past `limit`. */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const depth = d + 1;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth]);
  }
  return deepest;
}

async function readCounted(body: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function tooLarge(limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `body: larger than the limit of ${limit} bytes`, { param: "body" });
}
