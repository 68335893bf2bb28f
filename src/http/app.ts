import { Elysia } from "elysia";
import type { Gateway } from "../gateway";
import { ApiError, type ErrorCode } from "./errors";
import { newRequestId } from "./request-id";
import { healthRoutes } from "./routes/health";
import { keyRoutes } from "./routes/keys";
import { completionRoutes } from "./routes/completions";
import { embeddingRoutes } from "./routes/embeddings";
import { playgroundRoutes } from "./routes/playground";
import { metricsRoutes } from "./routes/metrics";
import { debugRoutes } from "./routes/debug";

/** Per-request facts every hook needs, including the error hook that runs before any handler state exists. */
interface RequestFacts {
  id: string;
  t0: number;
}
const facts = new WeakMap<Request, RequestFacts>();

export function requestIdOf(request: Request): string {
  return facts.get(request)?.id ?? newRequestId();
}

/** The request's id and arrival time (performance.now()), set by the first hook. */
export function requestStartOf(request: Request): RequestFacts {
  return facts.get(request) ?? { id: newRequestId(), t0: performance.now() };
}

/** Routes and their methods, so a known path with the wrong method answers 405 rather than 404. */
const ROUTE_METHODS: [RegExp, string[]][] = [];

export function registerRoute(method: string, pattern: string): void {
  const re = new RegExp("^" + pattern.replace(/:[^/]+/g, "[^/]+") + "/?$");
  const found = ROUTE_METHODS.find(([r]) => r.source === re.source);
  if (found) found[1].includes(method) || found[1].push(method);
  else ROUTE_METHODS.push([re, [method]]);
}

function clientGone(error: unknown, request: Request): boolean {
  const e = error as { name?: string; kind?: string };
  return request.signal.aborted && (e?.name === "AbortError" || e?.kind === "aborted");
}

function errorResponse(err: ApiError, requestId: string, extraHeaders?: Record<string, string>): Response {
  return new Response(JSON.stringify(err.body(requestId)), { status: err.status, headers: { ...err.headers(requestId), ...extraHeaders } });
}

/**
 * The HTTP front end: request ids on every response and log line, one error shape for everything
 * (unknown routes, wrong methods, malformed bodies and crashes included), and one access-log line
 * per request.
 */
export function buildApp(gw: Gateway) {
  // Bun's own cap answers with a bare 413; ours (readJsonBody) stops reading at the limit and answers
  // in the error shape, so Bun's cap only has to be far enough above ours never to win the race.
  const bunCap = Math.max(gw.settings.maxBodyBytes * 4, gw.settings.maxBodyBytes + 64 * 1024 * 1024);
  const app = new Elysia({ serve: { maxRequestBodySize: bunCap } })
    .onRequest(({ request }) => {
      facts.set(request, { id: newRequestId(), t0: performance.now() });
    })
    // The id goes onto the answer itself rather than into `set.headers` up front: Elysia rebuilds
    // every Response a handler returns when `set.headers` is not empty (about 10 µs per call
    // measured on the relay), and the completion route already sends it on its own Response.
    .onAfterHandle(({ request, response, set }) => {
      const id = facts.get(request)?.id;
      if (!id) return;
      if (response instanceof Response) {
        if (!response.headers.has("x-request-id")) response.headers.set("x-request-id", id);
      } else set.headers["x-request-id"] = id;
    })
    .onError(({ code, error, request, set }) => {
      const rid = requestIdOf(request);
      let err: ApiError;
      let headers: Record<string, string> | undefined;
      if (error instanceof ApiError) err = error;
      else if (clientGone(error, request)) {
        // Nobody is left to read an answer; this is the client's choice, not a server fault.
        gw.log.debug({ request_id: rid }, "client closed the connection");
        err = new ApiError("CLIENT_CLOSED", "the client closed the connection");
      }
      else if (code === "NOT_FOUND") {
        const path = new URL(request.url).pathname;
        const methods = ROUTE_METHODS.find(([re]) => re.test(path))?.[1];
        if (methods) {
          err = new ApiError("METHOD_NOT_ALLOWED", `${request.method} is not allowed on ${path}; allowed: ${methods.join(", ")}`);
          headers = { allow: methods.join(", ") };
        } else err = new ApiError("NOT_FOUND", `no route ${request.method} ${path}`);
      } else if (code === "PARSE") err = new ApiError("VALIDATION_ERROR", "body: malformed JSON", { param: "body" });
      else if (code === "VALIDATION") err = new ApiError("VALIDATION_ERROR", `request: ${(error as Error).message.slice(0, 300)}`);
      else {
        gw.log.error({ request_id: rid, err: { message: (error as Error)?.message, stack: (error as Error)?.stack } }, "unhandled error");
        err = new ApiError("INTERNAL_ERROR", "internal error; the request id identifies it in the server log");
      }
      set.status = err.status;
      return errorResponse(err, rid, headers);
    });
  // One access-log line per request, with its id; the hook is left out entirely when info lines are
  // off. Elysia applies a hook to the routes added after it, so it comes before them.
  if (gw.log.isLevelEnabled("info")) {
    app.onAfterResponse(({ request, set }) => {
      const f = facts.get(request);
      if (!f) return;
      const url = request.url;
      const path = url.slice(url.indexOf("/", url.indexOf("//") + 2)).split("?")[0];
      gw.log.info({ request_id: f.id, method: request.method, path, status: set.status ?? 200, ms: +(performance.now() - f.t0).toFixed(3) }, "request");
    });
  }
  const routes = app.use(healthRoutes(gw)).use(keyRoutes(gw)).use(completionRoutes(gw)).use(embeddingRoutes(gw)).use(playgroundRoutes(gw)).use(metricsRoutes(gw));
  return gw.settings.debugHeap ? routes.use(debugRoutes(gw)) : routes;
}

export type App = ReturnType<typeof buildApp>;
export type { ErrorCode };
