/** Server-Sent Events framing as OpenAI streams use it: `data: <json>` lines, ending with `data: [DONE]`. */
const encoder = new TextEncoder();

export function sseData(payload: unknown): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(payload)}\n\n`);
}

export const SSE_DONE = encoder.encode("data: [DONE]\n\n");
