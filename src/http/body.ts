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
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ApiError("VALIDATION_ERROR", `body: malformed JSON (${(e as Error).message})`, { param: "body" });
  }
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
