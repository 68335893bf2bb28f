import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { CHROMIUM, chromiumPresent as present, launchChromium } from "../support/chromium";
import { clientRigPerFile, MODELS } from "./rig";

/**
 * The TypeScript client in a real browser (Debian's chromium through playwright-core): bundled for the
 * browser by Bun's bundler and loaded by a page whose server passes /v1 and /api on to a real gateway,
 * the same origin a deployment needs (svc sends no CORS headers).
 */
if (!present) console.log(`skipping the client's browser test: ${CHROMIUM} is absent (apt-get install chromium; .ci/run installs it)`);

const rig = present ? clientRigPerFile() : undefined;

describe.skipIf(!present)("the TypeScript client in chromium", () => {
  let app: ReturnType<typeof Bun.serve>;
  let context: BrowserContext;
  let page: Page;
  let profile: string;

  beforeAll(async () => {
    const built = await Bun.build({
      entrypoints: [join(import.meta.dir, "..", "..", "clients", "typescript", "src", "index.ts")],
      target: "browser",
      format: "esm",
    });
    if (!built.success) throw new Error(built.logs.join("\n"));
    const bundle = await built.outputs[0]!.text();
    app = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      async fetch(req) {
        const url = new URL(req.url);
        if (url.pathname === "/") return new Response("<!doctype html><title>client</title>", { headers: { "content-type": "text/html" } });
        if (url.pathname === "/client.js") return new Response(bundle, { headers: { "content-type": "text/javascript" } });
        const headers = new Headers(req.headers);
        headers.delete("host");
        const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
        return fetch(`${rig!.gw.url}${url.pathname}${url.search}`, { method: req.method, headers, body });
      },
    });
    profile = mkdtempSync(join(tmpdir(), "svc-client-chromium-"));
    context = await launchChromium(profile);
    page = await context.newPage();
    await page.goto(`http://127.0.0.1:${app.port}/`);
  }, 90_000);

  afterAll(async () => {
    await context?.close();
    app?.stop(true);
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  test("complete, stream, a resource and a typed error; the key only from the option, never from a bundler's process.env", async () => {
    const got = await page.evaluate(
      async ({ key, model, origin }) => {
        // A bundler that inlines process.env would hand the page this: the client must not read it.
        (globalThis as { process?: unknown }).process = { env: { SVC_API_KEY: key } };
        const m = await import(`${origin}/client.js`);
        let missing = "";
        try {
          new m.Svc();
        } catch (e) {
          missing = (e as Error).name;
        }
        const svc = new m.Svc({ apiKey: key, baseURL: origin });
        const r = await svc.complete({ model, messages: [{ role: "user", content: "Hello from a browser" }] });
        const stream = await svc.complete({ model, messages: [{ role: "user", content: "Stream to a browser" }], stream: true });
        const { text, meta } = await stream.collect();
        const budget = await svc.budgets.create({ name: "from a browser", limit_usd: 1, period: "total" });
        const err = await new m.Svc({ apiKey: "svc_live_nope", baseURL: origin }).keys.list().catch((e: unknown) => e);
        return {
          missing,
          id: r.id,
          requested: r.svc_meta.model_requested,
          text,
          streamRequested: meta.model_requested,
          budget: (await svc.budgets.get(budget.id)).name,
          auth: err instanceof m.AuthenticationError,
          code: err.code,
          requestId: err.requestId,
        };
      },
      { key: rig!.admin.key, model: MODELS.ok, origin: `http://127.0.0.1:${app.port}` },
    );
    expect(got).toMatchObject({
      missing: "MissingApiKeyError",
      requested: MODELS.ok,
      streamRequested: MODELS.ok,
      budget: "from a browser",
      auth: true,
      code: "INVALID_KEY",
    });
    expect(got.id).toStartWith("svc_req_");
    expect(got.requestId).toStartWith("svc_req_");
    expect(got.text).toBe(rig!.openai.replies.at(-1)!.text);
  }, 60_000);
});
