import { ApiError } from "./errors";

/**
 * Reads a request body as JSON, stopping as soon as it passes `limit` bytes so an oversized or
 * endless body costs no more than the limit. Any content type is read as JSON (curl's default
 * form type included): every body this API takes is JSON.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge(limit);
  if (!request.body) throw new ApiError("VALIDATION_ERROR", "body: a JSON body is required", { param: "body" });
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  if (size === 0) throw new ApiError("VALIDATION_ERROR", "body: a JSON body is required", { param: "body" });
  const text = new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError("VALIDATION_ERROR", `body: malformed JSON (${(e as Error).message})`, { param: "body" });
  }
}

function tooLarge(limit: number): ApiError {
  return new ApiError("PAYLOAD_TOO_LARGE", `body: larger than the limit of ${limit} bytes`, { param: "body" });
}
