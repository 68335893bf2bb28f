import type { Server } from "bun";
import { maxHeaderSize } from "node:http";
import { PARSER_FLAG, PARSER_HEADER_BYTES, type Settings } from "./config/config";
import { createLogger, closeLog, type Logger } from "./log/logger";
import { closeServices, startBackground, startServices } from "./gateway";
import type { Services } from "./pipeline/services";
import { buildApp } from "./http/app";
import { Elysia } from "elysia";
import { metricsRoutes } from "./http/routes/metrics";
import { parseCompletionRequest } from "./http/validate/completion-request";
import { optimizeInputOf } from "./pipeline/analyze";
import { RULE_NAMES } from "./pipeline/compress";
import type { OptimizeInput } from "./pipeline/optimize-types";
import { WARM_PROMPTS } from "./pipeline/warm-prompts";

export interface RunningServer {
  services: Services;
  url: string;
  /** Stops accepting, lets in-flight requests finish (up to the grace period), flushes and closes the store. */
  shutdown(): Promise<void>;
}

/** The optimizer's input for `prompt` sent as one user message with `model: "auto"`, as the gateway's inline path gives it. */
export function userPromptInput(prompt: string, availableModels: string[], qualityFloor: number): OptimizeInput {
  return optimizeInputOf(parseCompletionRequest({ model: "auto", messages: [{ role: "user", content: prompt }] }, RULE_NAMES), availableModels, qualityFloor);
}

/** Run `run` of the optimizer's warm-up: a built-in prompt with every stage on. */
function warmInput(services: Services, run: number): OptimizeInput {
  const prompt = WARM_PROMPTS[run % WARM_PROMPTS.length]!.replaceAll("{n}", String(run + 1));
  const input = userPromptInput(prompt, services.servableModels, services.settings.qualityFloor);
  return { ...input, wantEmbedding: input.options.cache, countTokens: false };
}

export async function startServer(settings: Settings, log: Logger = createLogger(settings.logLevel)): Promise<RunningServer> {
  const services = await startServices(settings, log);
  if (services.providers.simulatedOnly) {
    log.warn(
      {},
      "no provider key configured (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, SVC_OPENAI_COMPAT_BASE_URL): answering every model with the built-in simulated provider; responses carry svc_meta.simulated = true",
    );
  }
  if (maxHeaderSize < PARSER_HEADER_BYTES)
    log.warn(
      { parser_limit: maxHeaderSize, wanted: PARSER_HEADER_BYTES },
      `Bun's HTTP parser limit is below svc's: header blocks over it get Bun's bare 431 with no error body; start Bun with ${PARSER_FLAG} (npm start and the svc command do)`,
    );
  // A rejected promise nobody awaited would end the process (Bun exits on one), and with it every open
  // call: a gateway logs it as the bug it is and keeps serving. Background writes catch their own
  // failures (gateway.ts guard); this is the net under whatever a later change leaves uncaught.
  process.on("unhandledRejection", (e) =>
    log.error({ err: { message: (e as Error)?.message, stack: (e as Error)?.stack } }, "unhandled rejection: logged, the gateway keeps serving"),
  );
  const app = buildApp(services);
  app.listen({ hostname: settings.host, port: settings.port });
  const server = app.server as Server<unknown>;
  // Rows wait for the end of their turn to be journaled together only while other requests are in flight (Ledger.record).
  services.ledger.groupWhile(() => server.pendingRequests > 1);
  const stopBackground = startBackground(services);
  if (settings.optimizerWarmRuns > 0) {
    const t0 = performance.now();
    services.optimizer
      .warm(settings.optimizerWarmRuns, (run) => warmInput(services, run))
      .then(
        (runs) => log.info({ runs, ms: Math.round(performance.now() - t0) }, "optimizer warmed"),
        (e: Error) => log.warn({ err: { message: e.message } }, "optimizer warm-up failed; requests warm it instead"),
      );
  }
  // A separate listener lets Prometheus scrape without a key, on an address the operator keeps private.
  const metricsServer = settings.metricsHost
    ? new Elysia().use(metricsRoutes(services, true)).listen({ hostname: settings.metricsHost, port: settings.metricsPort })
    : undefined;
  const url = `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${server.port}`;
  log.info({ url, data_dir: settings.dataDir, version: services.version }, "svc listening");
  // Supervisors and scripts wait for this line; the batch it sits in would hold it until the first flush.
  log.flush();

  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      log.info({ in_flight: server.pendingRequests }, "shutting down");
      // Stop accepting, then wait for in-flight requests only: idle keep-alive connections would
      // otherwise hold the shutdown until the grace period runs out.
      void server.stop(false);
      const deadline = performance.now() + settings.shutdownGraceMs;
      while (server.pendingRequests > 0 && performance.now() < deadline) await Bun.sleep(10);
      // Streams still open are cut now: they are charged for what they delivered, as stopped by the gateway.
      services.shutdown.abort();
      server.stop(true);
      metricsServer?.stop(true);
      stopBackground();
      await closeServices(services);
      log.info({}, "stopped");
      await closeLog(log);
    })());
  return { services, url, shutdown };
}
