/** The headers of an SSE answer (the framing itself is src/core/sse.ts, which the pipeline renders with). */
export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-accel-buffering": "no",
} as const;
