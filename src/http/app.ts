import { Elysia } from "elysia";
import type { Services } from "../pipeline/services";
import { ApiError, type ErrorCode } from "../core/errors";
import { factsOf, requestIdOf, startRequest } from "./request-id";
import { headerLimitError } from "./header-limits";
import { StoreUnavailableError } from "../store/busy";
import { healthRoutes } from "./routes/health";
import { keyRoutes } from "./routes/keys";
import { completionRoutes } from "./routes/completions";
import { embeddingRoutes } from "./routes/embeddings";
import { responseRoutes } from "./routes/responses";
import { playgroundRoutes } from "./routes/playground";
import { metricsRoutes } from "./routes/metrics";
import { debugRoutes } from "./routes/debug";
import { protocolRoutes } from "./routes/protocols";
import { conversationRoutes } from "./routes/conversations";
import { dashboardRoutes } from "./routes/dashboard";
import { budgetRoutes } from "./routes/budgets";
import { agentRunRoutes } from "./routes/agent-runs";
import { usageRoutes } from "./routes/usage";

/** Each known path with its methods, from the app's own route table, so a known path with the wrong method answers 405 rather than 404. */
function methodTable(routes: readonly { method: string; path: string }[]): [RegExp, string[]][] {
  const table: [RegExp, string[]][] = [];
  for (const { method, path } of routes) {
    const re = new RegExp("^" + path.replace(/:[^/]+/g, "[^/]+") + "/?$");
    const found = table.find(([r]) => r.source === re.source);
    if (found) found[1].includes(method) || found[1].push(method);
    else table.push([re, [method]]);
  }
  return table;
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
export function buildApp(gw: Services) {
  // Bun's own cap answers a declared Content-Length over it with a bare 413 before any handler runs
  // (68 MB+ did, issue 23); ours (readJsonBody) refuses a declared length over the limit without
  // reading it and stops reading an undeclared one at the limit, in the error shape. So Bun's cap is
  // off: Bun reads no body a handler does not ask for.
  // Built on the first 405, when every route has been added.
  let allowed: [RegExp, string[]][] | undefined;
  // One access-log line per request, with its id (left out when info lines are off), and the request
  // metrics, labelled with the route's pattern (an unknown path is "unmatched": a raw URL is unbounded).
  // Recorded where the answer is made (the handler's answer, the error hook's, the header check's)
  // rather than in Elysia's onAfterResponse, which schedules a task (setImmediate and an async
  // function) per request, and saw 200 for an answer the header check made. Without the hook the
  // relay used 5-6 µs less CPU per call in two knock-out runs (load 9-14); bench/relay-cpu.ts against
  // main could not tell the change from its noise (-1.8, +0.4, +2.0 µs in three runs, load 11-17).
  const logged = gw.log.isLevelEnabled("info");
  const answered = (request: Request, route: string, status: number) => {
    const f = factsOf(request);
    if (!f) return;
    const ms = performance.now() - f.t0;
    gw.metrics.countRequest(route || "unmatched", request.method, status, ms / 1000);
    if (!logged) return;
    const url = request.url;
    const path = url.slice(url.indexOf("/", url.indexOf("//") + 2)).split("?")[0];
    gw.log.info({ request_id: f.id, method: request.method, path, status, ms: +ms.toFixed(3) }, "request");
  };
  const app = new Elysia({ serve: { maxRequestBodySize: Number.MAX_SAFE_INTEGER } })
    .onRequest(({ request }) => {
      startRequest(request);
      const tooLarge = headerLimitError(request, gw.settings);
      if (!tooLarge) return;
      answered(request, "", tooLarge.status);
      return errorResponse(tooLarge, requestIdOf(request));
    })
    // The id goes onto the answer itself rather than into `set.headers` up front: Elysia rebuilds
    // every Response a handler returns when `set.headers` is not empty (about 10 µs per call
    // measured on the relay), and the completion route already sends it on its own Response.
    .onAfterHandle(({ request, response, set, route }) => {
      answered(request, route, response instanceof Response ? response.status : typeof set.status === "number" ? set.status : 200);
      const id = factsOf(request)?.id;
      if (!id) return;
      if (response instanceof Response) {
        if (!response.headers.has("x-request-id")) response.headers.set("x-request-id", id);
      } else set.headers["x-request-id"] = id;
    })
    .onError(({ code, error, request, set, route }) => {
      const rid = requestIdOf(request);
      let err: ApiError;
      let headers: Record<string, string> | undefined;
      if (error instanceof ApiError) err = error;
      // A store that failed under a path that did not say what it was checking: still the client's 503 to retry, not a 500.
      else if (error instanceof StoreUnavailableError)
        err = new ApiError("STORE_UNAVAILABLE", `the store cannot be reached now (${error.message}); retry shortly`, { retryAfterS: 2 });
      else if (clientGone(error, request)) {
        // Nobody is left to read an answer; this is the client's choice, not a server fault.
        gw.log.debug({ request_id: rid }, "client closed the connection");
        err = new ApiError("CLIENT_CLOSED", "the client closed the connection");
      } else if (code === "NOT_FOUND") {
        const path = new URL(request.url).pathname;
        const methods = (allowed ??= methodTable(app.routes)).find(([re]) => re.test(path))?.[1];
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
      answered(request, route, err.status);
      return errorResponse(err, rid, headers);
    });
  const routes = app
    .use(healthRoutes(gw))
    .use(dashboardRoutes())
    .use(keyRoutes(gw))
    .use(completionRoutes(gw))
    .use(embeddingRoutes(gw))
    .use(responseRoutes(gw))
    .use(playgroundRoutes(gw))
    .use(metricsRoutes(gw))
    .use(budgetRoutes(gw))
    .use(agentRunRoutes(gw))
    .use(usageRoutes(gw))
    .use(protocolRoutes(gw))
    .use(conversationRoutes(gw));
  return gw.settings.debugHeap ? routes.use(debugRoutes(gw)) : routes;
}

export type App = ReturnType<typeof buildApp>;
export type { ErrorCode };
