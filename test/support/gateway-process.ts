import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { PARSER_FLAG } from "../../src/config/config";

const ROOT = join(import.meta.dir, "..", "..");
const CLI = join(ROOT, "src", "cli", "main.ts");

export interface GatewayProcess {
  url: string;
  dataDir: string;
  env: Record<string, string>;
  proc: Subprocess<"ignore", "pipe", "pipe">;
  /** Every line the server wrote to stdout and stderr so far. */
  logs(): string[];
  /** Resolves when the process has exited and all its output has been read. */
  finished(): Promise<number>;
  /** SIGTERM, then wait for the process to exit; returns its exit code. */
  stop(): Promise<number>;
  /** Creates a key through the CLI on this server's store; returns the parsed JSON record incl. `key`. */
  cliKey(args?: string[]): Promise<KeyCreated>;
}

export interface KeyCreated {
  id: string;
  key: string;
  app_id: string;
  type: string;
  scopes: string[];
  [k: string]: unknown;
}

/** Runs the `svc` CLI with the given environment; resolves with its exit code and output. */
export async function runCli(args: string[], env: Record<string, string>, stdin?: string) {
  const proc = Bun.spawn([process.execPath, PARSER_FLAG, CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

async function pump(stream: ReadableStream<Uint8Array>, lines: string[], onLine: (l: string) => void) {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of stream) {
    buf += decoder.decode(chunk, { stream: true });
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      onLine(line);
    }
  }
  if (buf) lines.push(buf);
}

/**
 * Starts `svc serve` as its own process on a free port and a fresh data directory, the way a user
 * runs it, and waits until it listens.
 */
export async function startGateway(env: Record<string, string> = {}, opts: { dataDir?: string } = {}): Promise<GatewayProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "svc-test-"));
  const fullEnv: Record<string, string> = {
    SVC_DATA_DIR: dataDir,
    SVC_PORT: "0",
    SVC_HOST: "127.0.0.1",
    SVC_LOG_LEVEL: "info",
    SVC_KEY_SYNC_MS: "100",
    SVC_FLUSH_MS: "200",
    // Tests start many gateways; the warm-up's CPU would be spent in each (it has tests of its own).
    SVC_OPTIMIZER_WARM_RUNS: "0",
    ...env,
  };
  const proc = Bun.spawn([process.execPath, PARSER_FLAG, CLI, "serve"], {
    cwd: ROOT,
    env: { ...process.env, ...fullEnv },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  let resolveUrl!: (u: string) => void;
  const urlReady = new Promise<string>((r) => (resolveUrl = r));
  const onLine = (l: string) => {
    if (l.includes('"svc listening"')) resolveUrl(JSON.parse(l).url);
  };
  const pumps = Promise.all([pump(proc.stdout, lines, onLine), pump(proc.stderr, lines, onLine)]);
  const finished = async () => {
    const code = await proc.exited;
    await pumps;
    return code;
  };
  const url = await Promise.race([
    urlReady,
    proc.exited.then((c) => {
      throw new Error(`svc serve exited with ${c} before listening:\n${lines.join("\n")}`);
    }),
    Bun.sleep(60_000).then(() => {
      throw new Error(`svc serve did not listen within 60 s:\n${lines.join("\n")}`);
    }),
  ]);
  return {
    url,
    dataDir,
    env: fullEnv,
    proc,
    logs: () => lines,
    finished,
    async stop() {
      proc.kill("SIGTERM");
      const code = await finished();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
    async cliKey(args = ["--admin"]) {
      const r = await runCli(["keys", "create", "--json", ...args], fullEnv);
      if (r.code !== 0) throw new Error(`svc keys create failed: ${r.stderr}`);
      return JSON.parse(r.stdout) as KeyCreated;
    },
  };
}

/** fetch with a Bearer key and a JSON body. */
export function call(url: string, key: string | undefined, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...init.headers };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  return fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
}
