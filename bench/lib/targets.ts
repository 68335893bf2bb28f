import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { jsonLineField, pinned, ROOT, startService, type Service } from "./processes";

const BUN = process.execPath;
const CLI = join(ROOT, "src", "cli", "main.ts");

export interface MockSettings {
  latencyMs: number;
  chunkDelayMs: number;
}

/** The provider developer's OpenAI mock as its own process; `url` is its base URL (ending in /v1). */
export function startMock(logDir: string, cores: string | undefined, s: MockSettings, name = "mock"): Promise<Service> {
  const cmd = [BUN, join(ROOT, "test", "mocks", "openai-mock.ts"), "--port", "0", "--latency-ms", String(s.latencyMs), "--chunk-delay-ms", String(s.chunkDelayMs)];
  return startService({ name, cmd: pinned(cores, cmd), logDir, ready: (out) => jsonLineField(out, "url") });
}

export function startBareProxy(logDir: string, cores: string | undefined, mockUrl: string, name = "bare-proxy"): Promise<Service> {
  const cmd = [BUN, join(ROOT, "bench", "bare-proxy.ts"), "--upstream", mockUrl, "--port", "0"];
  return startService({ name, cmd: pinned(cores, cmd), logDir, ready: (out) => jsonLineField(out, "url") });
}

export interface GatewayService extends Service {
  /** A live admin key on a plan with a billion calls a month, so quotas never cut a run short. */
  key: string;
}

/**
 * `svc serve` the way a user runs it: a fresh data directory, OpenAI-family models sent to the mock,
 * and a key created with `svc keys create --admin --json` before the server starts.
 */
export async function startGateway(logDir: string, cores: string | undefined, mockUrl: string, logLevel: string, name = `svc-${logLevel}`): Promise<GatewayService> {
  const dataDir = join(logDir, name);
  mkdirSync(dataDir, { recursive: true });
  const plansFile = join(dataDir, "plans.json");
  writeFileSync(plansFile, JSON.stringify({ default_plan: "bench", plans: [{ id: "bench", monthly_calls: 1_000_000_000 }] }));
  const env = {
    SVC_DATA_DIR: dataDir,
    SVC_PORT: "0",
    SVC_HOST: "127.0.0.1",
    SVC_LOG_LEVEL: logLevel,
    SVC_PLANS_FILE: plansFile,
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: mockUrl,
  };
  const created = Bun.spawnSync([BUN, CLI, "keys", "create", "--admin", "--json"], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  if (created.exitCode !== 0) throw new Error(`svc keys create failed: ${created.stderr.toString()}`);
  const key = (JSON.parse(created.stdout.toString()) as { key: string }).key;
  const service = await startService({ name, cmd: pinned(cores, [BUN, CLI, "serve"]), env, logDir, ready: (out) => jsonLineField(out, "url", '"svc listening"') });
  return { ...service, key };
}

export const PORTKEY_VERSION = "1.15.2";
const PEERS = join(ROOT, "bench", ".peers");
const PORTKEY_ENTRY = join(PEERS, "node_modules", "@portkey-ai", "gateway", "build", "start-server.js");

/** A port nobody listens on right now (Portkey's server takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The Portkey AI gateway (open-source build from npm), installed on demand into bench/.peers (git-ignored,
 * never a project dependency) and run with Bun. Answers undefined with the reason when it cannot run here.
 */
export async function startPortkey(logDir: string, cores: string | undefined, say: (line: string) => void): Promise<{ service?: Service; reason?: string }> {
  if (!existsSync(PORTKEY_ENTRY)) {
    say(`installing @portkey-ai/gateway@${PORTKEY_VERSION} into bench/.peers (not a project dependency)`);
    mkdirSync(PEERS, { recursive: true });
    if (!existsSync(join(PEERS, "package.json"))) writeFileSync(join(PEERS, "package.json"), '{"private":true}\n');
    const r = Bun.spawnSync(["flock", "/tmp/svc-npm.lock", "npm", "install", "--no-audit", "--no-fund", "--no-package-lock", `@portkey-ai/gateway@${PORTKEY_VERSION}`], { cwd: PEERS, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0 || !existsSync(PORTKEY_ENTRY)) return { reason: `npm install @portkey-ai/gateway failed: ${r.stderr.toString().trim().slice(-300)}` };
  }
  const port = await freePort();
  try {
    const service = await startService({
      name: "portkey",
      cmd: pinned(cores, [BUN, PORTKEY_ENTRY, `--port=${port}`, "--headless"]),
      env: { NODE_ENV: "production" },
      logDir,
      ready: (out) => (out.includes("Ready for connections") ? `http://127.0.0.1:${port}` : undefined),
    });
    return { service };
  } catch (e) {
    return { reason: `Portkey did not start: ${(e as Error).message.slice(0, 300)}` };
  }
}

/** Headers that make Portkey relay to our mock through its OpenAI provider. */
export function portkeyHeaders(mockUrl: string): Record<string, string> {
  return { "x-portkey-provider": "openai", "x-portkey-custom-host": mockUrl, authorization: "Bearer sk-bench" };
}
