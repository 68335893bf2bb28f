import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Tracer } from "@opentelemetry/api";
import type { LedgerRow } from "../accounting/ledger";
import type { Call, CallEnd } from "./call";
import { attemptsOf } from "./observe";

type Ended = Exclude<CallEnd, { kind: "refused" }>;

/** Exports one trace per settled call; present only when tracing is on. */
export interface CallTracer {
  record(call: Call, end: Ended, row: LedgerRow, settleStart: number): void;
  shutdown(): Promise<void>;
}

/**
 * Tracing is on when the standard variables ask for an OTLP exporter: OTEL_TRACES_EXPORTER=otlp, or an
 * OTLP endpoint set (OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) with no other
 * exporter named; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none keeps it off. Off by default.
 */
export function tracingEnabled(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter) return exporter.split(",").some((e) => e.trim() === "otlp");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * The OTLP/HTTP (JSON) exporter behind a batch processor; the exporter reads its endpoint, headers,
 * timeout and compression from the OTEL_EXPORTER_OTLP_* variables, the resource OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES, the batch OTEL_BSP_SCHEDULE_DELAY / OTEL_BSP_MAX_EXPORT_BATCH_SIZE /
 * OTEL_BSP_MAX_QUEUE_SIZE. Undefined when tracing is off, so the hot path only tests one field; the
 * SDK and the exporter are loaded only when it is on.
 */
export async function startTracing(env: Record<string, string | undefined>, version: string): Promise<CallTracer | undefined> {
  if (!tracingEnabled(env)) return undefined;
  const [{ BatchSpanProcessor, TracerProvider }, { OTLPTraceExporter }, { defaultResource, detectResources, envDetector, resourceFromAttributes }] =
    await Promise.all([import("@opentelemetry/sdk-trace"), import("@opentelemetry/exporter-trace-otlp-http"), import("@opentelemetry/resources")]);
  const num = (name: string) => (env[name] ? Number(env[name]) : undefined);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ "service.name": "svc", "service.version": version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: num("OTEL_BSP_SCHEDULE_DELAY"),
        maxExportBatchSize: num("OTEL_BSP_MAX_EXPORT_BATCH_SIZE"),
        maxQueueSize: num("OTEL_BSP_MAX_QUEUE_SIZE"),
      }),
    ],
  });
  const tracer = provider.getTracer("svc", version);
  return { record: (call, end, row, settleStart) => recordCall(tracer, call, end, row, settleStart), shutdown: () => provider.shutdown() };
}

/** performance.now() readings to epoch milliseconds, what a span's start and end take. */
const epoch = (t: number) => performance.timeOrigin + t;

/**
 * A call's trace, built at its settle from the times the runner left on it (so a call costs no span
 * objects until then): the server span, with admit (each stage's `before` under it), optimize, cache
 * lookup, one client span per upstream attempt and the settle. GenAI semantic-convention attributes on
 * the server span and the attempts.
 */
function recordCall(tracer: Tracer, call: Call, end: Ended, row: LedgerRow, settleStart: number): void {
  const now = performance.now();
  const answered = end.kind !== "failed" ? end : undefined;
  const attrs: Attributes = {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": call.req.model,
    "http.route": call.route,
    "http.response.status_code": row.status,
    "svc.request_id": call.requestId,
    "svc.cache_hit": row.cacheHit,
    "svc.saved_usd": row.savedUsd,
    "svc.cost_usd": row.costActualUsd,
    "svc.stream": call.req.stream,
  };
  if (answered) {
    attrs["gen_ai.response.model"] = answered.outcome.served.id;
    attrs["gen_ai.provider.name"] = answered.outcome.served.provider;
    attrs["gen_ai.usage.input_tokens"] = answered.outcome.usage.prompt_tokens;
    attrs["gen_ai.usage.output_tokens"] = answered.outcome.usage.completion_tokens;
    const cached = answered.outcome.usage.prompt_tokens_details?.cached_tokens;
    if (typeof cached === "number") attrs["gen_ai.usage.cache_read.input_tokens"] = cached;
    attrs["svc.routing_reason"] = answered.outcome.reason;
    attrs["svc.original_tokens"] = answered.priced.originalPromptTokens;
  } else if (call.plan) attrs["svc.routing_reason"] = call.plan.reason;
  if (row.errorCode) attrs["error.type"] = row.errorCode;
  const root = tracer.startSpan(`chat ${call.route}`, { kind: SpanKind.SERVER, startTime: epoch(call.t0), attributes: attrs }, ROOT_CONTEXT);
  if (row.errorCode && row.status !== 499) root.setStatus({ code: SpanStatusCode.ERROR, message: row.errorCode ?? undefined });
  const parent = trace.setSpan(ROOT_CONTEXT, root);
  const { opened, admitted, optimized, lookedUp } = call.marks;
  const admit = tracer.startSpan("svc.admit", { startTime: epoch(opened) }, parent);
  const admitCtx = trace.setSpan(parent, admit);
  for (const b of call.befores ?? [])
    tracer.startSpan(`svc.stage.${b.name}.before`, { startTime: epoch(b.start), attributes: { "svc.stage": b.name } }, admitCtx).end(epoch(b.end));
  admit.end(epoch(admitted || settleStart));
  if (optimized)
    span(
      tracer,
      parent,
      "svc.optimize",
      admitted,
      optimized,
      call.plan ? { "svc.routing_reason": call.plan.reason, "svc.compression_ratio": call.plan.opt.compressionRatio } : {},
    );
  if (lookedUp) span(tracer, parent, "svc.cache.lookup", optimized, lookedUp, { "svc.cache_hit": row.cacheHit });
  for (const a of attemptsOf(call, end)) {
    const at = a.at ?? settleStart - a.ms;
    const s = tracer.startSpan(
      `chat ${a.model}`,
      {
        kind: SpanKind.CLIENT,
        startTime: epoch(at),
        attributes: { "gen_ai.operation.name": "chat", "gen_ai.provider.name": a.provider, "gen_ai.request.model": a.model, "svc.attempt_outcome": a.outcome },
      },
      parent,
    );
    if (a.outcome !== "ok") {
      s.setAttribute("error.type", a.outcome);
      if (a.status !== undefined) s.setAttribute("http.response.status_code", a.status);
      s.setStatus({ code: SpanStatusCode.ERROR, message: a.error });
    }
    s.end(epoch(at + a.ms));
  }
  span(tracer, parent, "svc.settle", settleStart, now, {});
  root.end(epoch(now));
}

function span(tracer: Tracer, parent: Context, name: string, start: number, end: number, attributes: Attributes): void {
  tracer.startSpan(name, { startTime: epoch(start), attributes }, parent).end(epoch(end));
}
