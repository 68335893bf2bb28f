import { createInterface } from "node:readline";
import type { Settings } from "../config/config";
import { ApiError } from "../core/errors";
import { parseCompletionRequest } from "../http/validate/completion-request";
import { RULE_NAMES } from "../pipeline/compress";
import { optimize } from "../pipeline/optimize";
import { loadOptimizerDeps } from "../pipeline/optimizer-deps";
import { optimizeInputOf, reportOf } from "../pipeline/analyze";
import { maskRequest, piiTypesOf } from "../pipeline/pii/request";
import { buildProviders } from "../providers/registry";

/**
 * `svc optimize`: JSON lines `{messages, model?, svc_options?}` in, one report line out per input, in
 * order, without calling any provider. A bad line gets an error line and the rest go on.
 */
export async function optimizeCommand(settings: Settings, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<void> {
  const deps = await loadOptimizerDeps(settings);
  const providers = buildProviders(process.env, deps.catalog);
  const available = deps.catalog.models.filter((m) => providers.providerFor(m) !== undefined).map((m) => m.id);
  const piiTypes = piiTypesOf(settings.piiTypes);
  let lineNo = 0;
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (line.trim() === "") continue;
    try {
      const req = parseCompletionRequest(JSON.parse(line), RULE_NAMES);
      const masked = maskRequest(req, piiTypes);
      output.write(JSON.stringify(reportOf(await optimize(optimizeInputOf(masked.req, available, settings.qualityFloor), deps), masked)) + "\n");
    } catch (e) {
      const err = e instanceof ApiError ? e : new ApiError("VALIDATION_ERROR", `line ${lineNo}: ${(e as Error).message}`);
      output.write(
        JSON.stringify({ error: { message: err.message, type: err.type, code: err.code, line: lineNo, ...(err.extra.param && { param: err.extra.param }) } }) +
          "\n",
      );
    }
  }
}
