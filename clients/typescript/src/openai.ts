import { resolveConnection, type ConnectionOptions } from "./config.js";
import type { SvcMeta, SvcOptions } from "./types.js";

/**
 * An official `openai` SDK client pointed at svc (`${baseURL}/v1`, the svc key), for code that already
 * speaks the OpenAI SDK. The SDK is passed in, so it stays the caller's dependency, not this package's:
 *
 *     import OpenAI from "openai";
 *     const openai = openAIClient(OpenAI);
 *
 * Other OpenAI options (maxRetries, timeout, ...) pass through.
 */
export function openAIClient<C, O extends { apiKey?: unknown; baseURL?: string | null | undefined }>(
  OpenAI: new (options?: O) => C,
  options: NoInfer<Omit<O, "apiKey" | "baseURL"> & ConnectionOptions> = {} as Omit<O, "apiKey" | "baseURL"> & ConnectionOptions,
): C {
  const { apiKey, baseURL } = resolveConnection(options);
  return new OpenAI({ ...options, apiKey, baseURL: `${baseURL}/v1` } as unknown as O);
}

/**
 * The request params with `svc_options` added, typed as the params themselves so the OpenAI SDK's
 * types accept them (the SDK sends unknown body fields as they are):
 *
 *     await openai.chat.completions.create(withSvcOptions({ model: "auto", messages }, { score: false }));
 */
export function withSvcOptions<P extends object>(params: P, svcOptions: SvcOptions): P {
  return { ...params, svc_options: svcOptions };
}

/** The `svc_meta` of an OpenAI SDK response or stream chunk (undefined on chunks before the last). */
export function svcMetaOf(response: object): SvcMeta | undefined {
  return (response as { svc_meta?: SvcMeta }).svc_meta;
}
