import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import {
  AuthenticationError,
  InvalidRequestError,
  MissingApiKeyError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  Svc,
  SVC_META_FIELDS,
  UpstreamError,
  openAIClient,
  svcMetaOf,
  withSvcOptions,
  type SvcClientOptions,
} from "../../clients/typescript/src/index.ts";
import { expectError, failure } from "./expect-error";
import { clientRigPerFile, MAX_BODY_BYTES, MODELS, TEST_KEY_DAILY_CALLS, TINY_PLAN } from "./rig";

const rig = clientRigPerFile();
const admin = (o: SvcClientOptions = {}) => new Svc({ apiKey: rig.admin.key, baseURL: rig.gw.url, ...o });
const ask = (content: string) => [{ role: "user" as const, content }];
const APP = "clients-app";

/** Restores the variables a test changed, so no test sees another's environment. */
const savedEnv: Record<string, string | undefined> = {};
function setEnv(name: string, value: string | undefined) {
  if (!(name in savedEnv)) savedEnv[name] = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
afterEach(() => {
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    delete savedEnv[k];
  }
  delete (globalThis as Record<string, unknown>).window;
  delete (globalThis as Record<string, unknown>).document;
});

describe("complete()", () => {
  test("a completion with typed svc_meta; the options reach the server", async () => {
    const svc = admin();
    const r = await svc.complete({ model: MODELS.ok, messages: ask("What is the capital of France?"), svc_options: { cache: false } });
    expect(r.id).toStartWith("svc_req_");
    expect(r.model).toBe("gpt-4o-mini-2024-07-18");
    expect(r.choices[0]!.message.content).toBe(rig.openai.replies.at(-1)!.text);
    expect(r.svc_meta.model_requested).toBe(MODELS.ok);
    expect(r.svc_meta.routing_reason).toBe("explicit_model");
    expect(r.svc_meta.cache_hit).toBe(false);
    expect(r.svc_meta.quality_score).toBeNumber();
    for (const k of Object.keys(r.svc_meta)) expect(SVC_META_FIELDS as readonly string[]).toContain(k);
    const unscored = await svc.complete({ model: MODELS.ok, messages: ask("What is the capital of Spain?"), svc_options: { cache: false, score: false } });
    expect(unscored.svc_meta).not.toHaveProperty("quality_score");
  });

  test("streaming yields every piece, and the last chunk carries svc_meta", async () => {
    const stream = await admin().complete({ model: MODELS.ok, messages: ask("What is the capital of Italy?"), stream: true, svc_options: { cache: false } });
    expect(stream.requestId).toStartWith("svc_req_");
    const chunks = [];
    let text = "";
    for await (const c of stream) {
      chunks.push(c);
      text += c.choices[0]?.delta.content ?? "";
    }
    expect(text).toBe(rig.openai.replies.at(-1)!.text);
    const last = chunks.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe("stop");
    expect(last.svc_meta!.model_requested).toBe(MODELS.ok);
    expect(stream.meta).toEqual(last.svc_meta!);
    expect(chunks.slice(0, -1).every((c) => c.svc_meta === undefined)).toBe(true);
  });

  test("collect() reads a whole stream", async () => {
    const stream = await admin().complete({ model: MODELS.ok, messages: ask("Name a colour of the sky."), stream: true, svc_options: { cache: false } });
    const { text, meta } = await stream.collect();
    expect(text).toBe(rig.openai.replies.at(-1)!.text);
    expect(meta!.cache_hit).toBe(false);
  });

  test("a provider failing after the first chunk surfaces as the typed error, never as a short answer", async () => {
    rig.openai.cutAfterChunks = 2;
    try {
      const stream = await admin().complete({
        model: MODELS.ok,
        messages: ask("Tell me about rivers in Europe."),
        stream: true,
        svc_options: { cache: false },
      });
      let seen = 0;
      const err = await failure(
        (async () => {
          for await (const _ of stream) seen++;
        })(),
      );
      expect(seen).toBeGreaterThan(0);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.code).toBe("UPSTREAM_ERROR");
      expect(err.status).toBe(502);
      expect(err.requestId).toBe(stream.requestId!);
    } finally {
      rig.openai.cutAfterChunks = undefined;
    }
  });
});

describe("the key and base URL", () => {
  test("come from SVC_API_KEY and SVC_BASE_URL when no option is given", async () => {
    setEnv("SVC_API_KEY", rig.admin.key);
    setEnv("SVC_BASE_URL", rig.gw.url);
    const svc = new Svc();
    expect(svc.baseURL).toBe(rig.gw.url);
    const r = await svc.complete({ model: MODELS.ok, messages: ask("Hello from the environment") });
    expect(r.svc_meta.model_requested).toBe(MODELS.ok);
  });

  test("the option wins over the environment", async () => {
    setEnv("SVC_API_KEY", "svc_live_not_this_one");
    const keys = await admin().keys.list();
    expect(keys.map((k) => k.id)).toContain(rig.admin.id);
  });

  test("no key anywhere is a clear error before any request", () => {
    setEnv("SVC_API_KEY", undefined);
    expect(() => new Svc({ baseURL: rig.gw.url })).toThrow(MissingApiKeyError);
    expect(() => new Svc()).toThrow(/SVC_API_KEY/);
  });

  test("in a browser the environment is not read", () => {
    setEnv("SVC_API_KEY", rig.admin.key);
    Object.assign(globalThis, { window: {}, document: {} });
    expect(() => new Svc({ baseURL: rig.gw.url })).toThrow(MissingApiKeyError);
    expect(new Svc({ apiKey: rig.admin.key }).baseURL).toBe("http://127.0.0.1:8080");
  });
});

describe("keys", () => {
  test("create → use → list → revoke → KEY_REVOKED", async () => {
    const svc = admin();
    const created = await svc.keys.create({ name: "ci bot", app_id: APP });
    expect(created.key).toStartWith("svc_live_");
    expect(created.id).toStartWith("key_");
    expect(created.status).toBe("active");
    const bot = new Svc({ apiKey: created.key, baseURL: rig.gw.url });
    const r = await bot.complete({ model: MODELS.ok, messages: ask("Hello from the bot") });
    expect(r.choices[0]!.message.content).toBe(rig.openai.replies.at(-1)!.text);
    const listed = (await svc.keys.list()).find((k) => k.id === created.id)!;
    expect(listed).toMatchObject({ name: "ci bot", app_id: APP, status: "active", last4: created.key.slice(-4) });
    expect(listed).not.toHaveProperty("key");
    const revoked = await svc.keys.revoke(created.id);
    expect(revoked.status).toBe("revoked");
    expect(revoked.revoked_at).toBeString();
    expectError(await failure(bot.complete({ model: MODELS.ok, messages: ask("Hello again") })), AuthenticationError, "KEY_REVOKED", 401);
  });
});

describe("every error the server can produce, as its class", () => {
  const noRetry = () => admin({ maxRetries: 0 });

  test("401 UNAUTHORIZED and INVALID_KEY", async () => {
    const malformed = new Svc({ apiKey: "not a bearer token", baseURL: rig.gw.url });
    expectError(await failure(malformed.complete({ messages: ask("hi") })), AuthenticationError, "UNAUTHORIZED", 401);
    const unknown = new Svc({ apiKey: "svc_live_nope", baseURL: rig.gw.url });
    expectError(await failure(unknown.complete({ messages: ask("hi") })), AuthenticationError, "INVALID_KEY", 401);
  });

  test("400 VALIDATION_ERROR names the field; MODEL_NOT_FOUND", async () => {
    const bad = await failure(noRetry().complete({ messages: ask("hi"), svc_options: { max_aggressiveness: 2 } }));
    expectError(bad, InvalidRequestError, "VALIDATION_ERROR", 400);
    expect(bad.param).toBe("svc_options.max_aggressiveness");
    expectError(await failure(noRetry().complete({ model: "no-such-model", messages: ask("hi") })), InvalidRequestError, "MODEL_NOT_FOUND", 400);
  });

  test("403 FORBIDDEN and 404 NOT_FOUND from key management", async () => {
    const svc = admin();
    expectError(await failure(svc.keys.create({ name: "other", app_id: "another-app" })), PermissionDeniedError, "FORBIDDEN", 403);
    const plain = await svc.keys.create({ name: "no admin", app_id: APP });
    const user = new Svc({ apiKey: plain.key, baseURL: rig.gw.url });
    expectError(await failure(user.keys.list()), PermissionDeniedError, "FORBIDDEN", 403);
    expectError(await failure(svc.keys.revoke("key_doesnotexist")), NotFoundError, "NOT_FOUND", 404);
  });

  test("405 METHOD_NOT_ALLOWED and 413 PAYLOAD_TOO_LARGE", async () => {
    expectError(await failure(admin().request("PUT", "/api/keys", {})), InvalidRequestError, "METHOD_NOT_ALLOWED", 405);
    const big = await failure(noRetry().complete({ messages: ask("x".repeat(MAX_BODY_BYTES + 10)) }));
    expectError(big, InvalidRequestError, "PAYLOAD_TOO_LARGE", 413);
  });

  test("414 URI_TOO_LONG and 431 HEADERS_TOO_LARGE (the server's 8 KiB and 16 KiB defaults)", async () => {
    expectError(await failure(admin().conversations.get("c".repeat(9000))), InvalidRequestError, "URI_TOO_LONG", 414);
    const bigHeaders = new Svc({ apiKey: rig.admin.key, baseURL: rig.gw.url, headers: { "x-padding": "h".repeat(17_000) } });
    expectError(await failure(bigHeaders.keys.list()), InvalidRequestError, "HEADERS_TOO_LARGE", 431);
  });

  test("429 RATE_LIMITED: a test key past its daily calls, with Retry-After, thrown at once (beyond the retry cap)", async () => {
    const created = await admin().keys.create({ name: "tester", app_id: APP, type: "test" });
    // The counting fetch only sees what the client sends: a wait for the Retry-After would come with a second request.
    let sent = 0;
    const tester = new Svc({ apiKey: created.key, baseURL: rig.gw.url, fetch: (url, init) => (sent++, fetch(url, init)) });
    for (let i = 0; i < TEST_KEY_DAILY_CALLS; i++) await tester.complete({ model: MODELS.ok, messages: ask(`call ${i}`) });
    sent = 0;
    const err = await failure(tester.complete({ model: MODELS.ok, messages: ask("one too many") }));
    expect(sent).toBe(1);
    expectError(err, RateLimitError, "RATE_LIMITED", 429);
    expect(err.retryAfter).toBeGreaterThan(0);
    expect(err.retryAfter).toBeLessThanOrEqual(86_400);
  });

  test("429 QUOTA_EXCEEDED: a live key past its plan's monthly calls", async () => {
    const created = await admin().keys.create({ name: "tiny", app_id: APP, plan: TINY_PLAN });
    const tiny = new Svc({ apiKey: created.key, baseURL: rig.gw.url });
    await tiny.complete({ model: MODELS.ok, messages: ask("the only call") });
    const err = await failure(tiny.complete({ model: MODELS.ok, messages: ask("past the quota") }));
    expectError(err, RateLimitError, "QUOTA_EXCEEDED", 429);
    expect(err.retryAfter).toBeGreaterThan(0);
  });

  test("502 UPSTREAM_ERROR, 504 UPSTREAM_TIMEOUT, 503 NO_PROVIDER", async () => {
    const svc = noRetry();
    expectError(await failure(svc.complete({ model: MODELS.failing, messages: ask("hi") })), UpstreamError, "UPSTREAM_ERROR", 502);
    expectError(await failure(svc.complete({ model: MODELS.hanging, messages: ask("hi") })), UpstreamError, "UPSTREAM_TIMEOUT", 504);
    expectError(await failure(svc.complete({ model: MODELS.unserved, messages: ask("hi") })), ServiceUnavailableError, "NO_PROVIDER", 503);
  });

  test("an error before a stream starts is thrown by complete() itself", async () => {
    const err = await failure(noRetry().complete({ model: MODELS.unserved, messages: ask("hi"), stream: true }));
    expectError(err, ServiceUnavailableError, "NO_PROVIDER", 503);
  });
});

describe("the openai SDK configured by the helper", () => {
  test("reads SVC_API_KEY, sends typed svc_options, exposes svc_meta", async () => {
    setEnv("SVC_API_KEY", rig.admin.key);
    const openai = openAIClient(OpenAI, { baseURL: rig.gw.url, maxRetries: 0 });
    const scored = await openai.chat.completions.create(withSvcOptions({ model: MODELS.ok, messages: ask("What is two plus two?") }, { cache: false }));
    expect(scored.id).toStartWith("svc_req_");
    expect(svcMetaOf(scored)!.quality_score).toBeNumber();
    const unscored = await openai.chat.completions.create(
      withSvcOptions({ model: MODELS.ok, messages: ask("What is three plus three?") }, { cache: false, score: false }),
    );
    expect(svcMetaOf(unscored)).not.toHaveProperty("quality_score");
    const err = await openAIClient(OpenAI, { apiKey: "svc_live_nope", baseURL: rig.gw.url, maxRetries: 0 })
      .chat.completions.create({ model: MODELS.ok, messages: ask("hi") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  test("without a key it throws the client's clear error, not the SDK's", () => {
    setEnv("SVC_API_KEY", undefined);
    expect(() => openAIClient(OpenAI, { baseURL: rig.gw.url })).toThrow(MissingApiKeyError);
  });
});

/** Runs a command to its end; its output and exit code. */
async function run(cmd: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const proc = Bun.spawn(cmd, { ...opts, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

describe("as a user installs it", () => {
  test("npm pack builds the package (its prepack compiles dist/); installed from the tarball it type-checks and runs under node 20", async () => {
    const root = join(import.meta.dir, "..", "..");
    const out = mkdtempSync(join(tmpdir(), "clients-pack-"));
    try {
      const pack = await run(["npm", "pack", "-w", "@svc/client", "--pack-destination", out, "--json"], { cwd: root });
      expect(pack.code).toBe(0);
      const [packed] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
      const files = packed!.files.map((f) => f.path);
      expect(files).toEqual(expect.arrayContaining(["dist/index.js", "dist/index.d.ts", "dist/resources.js", "README.md", "package.json"]));
      expect(files.filter((f) => f.startsWith("test") || f.endsWith(".tsbuildinfo"))).toEqual([]);

      // A project of the user's: the tarball installed offline (the package has no dependency to fetch).
      const app = join(out, "app");
      await Bun.write(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
      const install = await run(["npm", "install", "--offline", "--no-audit", "--no-fund", join(out, packed!.filename)], { cwd: app });
      expect(install.code).toBe(0);
      await Bun.write(
        join(app, "smoke.ts"),
        `import { Svc, AuthenticationError, type Budget, type SvcMeta } from "@svc/client";
const svc = new Svc();
const r = await svc.complete({ model: "${MODELS.ok}", messages: [{ role: "user", content: "Hello from Node" }] });
const meta: SvcMeta = r.svc_meta;
const stream = await svc.complete({ model: "${MODELS.ok}", messages: [{ role: "user", content: "Stream from Node" }], stream: true });
const { text, meta: streamMeta } = await stream.collect();
const budget: Budget = await svc.budgets.create({ name: "from node", limit_usd: 1, period: "daily" });
const err = await new Svc({ apiKey: "svc_live_nope" }).complete({ messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
console.log(JSON.stringify({ id: r.id, meta: meta.model_requested, text, streamMeta: streamMeta?.model_requested, budget: budget.period,
  auth: err instanceof AuthenticationError, code: (err as AuthenticationError).code }));
`,
      );
      // The declarations as a strict consumer's tsc resolves them through package.json's "exports".
      await Bun.write(
        join(app, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2022", "DOM"],
            types: [],
            strict: true,
            outDir: "dist",
          },
          files: ["smoke.ts"],
        }),
      );
      const tsc = await run([process.execPath, join(root, "node_modules", "typescript", "bin", "tsc"), "-p", join(app, "tsconfig.json")], { cwd: app });
      expect(`${tsc.stdout}${tsc.stderr}`).toBe("");
      expect(tsc.code).toBe(0);
      const node = await run(["node", join(app, "dist", "smoke.js")], {
        cwd: app,
        env: { ...process.env, SVC_API_KEY: rig.admin.key, SVC_BASE_URL: rig.gw.url },
      });
      expect(node.stderr).toBe("");
      expect(node.code).toBe(0);
      const got = JSON.parse(node.stdout);
      expect(got).toMatchObject({ meta: MODELS.ok, streamMeta: MODELS.ok, budget: "daily", auth: true, code: "INVALID_KEY" });
      expect(got.id).toStartWith("svc_req_");
      expect(got.text).toBe(rig.openai.replies.at(-1)!.text);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
