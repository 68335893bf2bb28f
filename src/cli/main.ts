#!/usr/bin/env -S sh -c 'MIMALLOC_PURGE_HOLES="${MIMALLOC_PURGE_HOLES:-0}" exec bun --max-http-header-size=1048576 "$0" "$@"'
import { parseArgs } from "node:util";
import pino from "pino";
import { loadSettings, ConfigError, type Settings } from "../config/config";
import { createLogger } from "../log/logger";
import { closeServices, openStoreServices, type StoreServices } from "../gateway";
import { startServer } from "../server";
import { ApiError } from "../core/errors";
import type { KeyRecordView } from "../auth/key-record";

const USAGE = `svc — the OpenAI-compatible gateway that cuts what LLM calls cost

usage:
  svc serve                                   start the gateway (SVC_HOST, SVC_PORT, SVC_DATA_DIR, ...)
  svc keys create [--name N] [--app A] [--type live|test] [--plan P] [--budget B] [--admin] [--json]
  svc keys update <key_id> [--budget B|none] [--run-max-calls N|none] [--run-max-repeats N|none] [--run-max-cost-usd X|none] [--json]
                                              a key's defaults: its budget, and the limits of its calls' agent runs (none: the operator's)
  svc keys list --app A [--json]
  svc keys revoke <key_id> [--json]
  svc optimize                                JSON lines {messages, model?, svc_options?} on stdin → what would go upstream
  svc similarity                              JSON lines {a, b} on stdin → {similarity} (cosine, -1..1)
  svc bench [--quick] [--soak-s N] [--no-peers]   the latency-overhead benchmark (bench/run.ts)

Settings come from SVC_* environment variables and the JSON file named by SVC_CONFIG.`;

function fail(message: string, code = 2): never {
  process.stderr.write(`svc: ${message}\n`);
  process.exit(code);
}

/** The CLI works on the store directly, like a server on the same data directory would. */
async function withGateway<T>(settings: Settings, fn: (gw: StoreServices) => Promise<T>): Promise<T> {
  const gw = await openStoreServices(settings, pino({ level: "silent" }));
  try {
    return await fn(gw);
  } finally {
    await closeServices(gw);
  }
}

function printKey(k: KeyRecordView & { key?: string }, json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(k) + "\n");
    return;
  }
  const lines = [
    `id:       ${k.id}`,
    `name:     ${k.name}`,
    `app_id:   ${k.app_id}`,
    `type:     ${k.type}`,
    `scopes:   ${k.scopes.join(",")}`,
    `plan:     ${k.plan}`,
    `status:   ${k.status}`,
    `budget:   ${k.budget_id ?? "none"}`,
    `run limits: calls ${k.agent_run_limits.max_calls ?? "default"}, repeats ${k.agent_run_limits.max_repeats ?? "default"}, cost ${k.agent_run_limits.max_cost_usd === null ? "default" : `$${k.agent_run_limits.max_cost_usd}`}`,
  ];
  if (k.key) lines.push("", `key:      ${k.key}`, "", "This is the only time the key is shown. Store it now.");
  process.stdout.write(lines.join("\n") + "\n");
}

async function keysCommand(settings: Settings, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      app: { type: "string" },
      type: { type: "string" },
      plan: { type: "string" },
      budget: { type: "string" },
      "run-max-calls": { type: "string" },
      "run-max-repeats": { type: "string" },
      "run-max-cost-usd": { type: "string" },
      admin: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
  const json = values.json ?? false;
  await withGateway(settings, async (gw) => {
    if (sub === "create") {
      const type = values.type ?? "live";
      if (type !== "live" && type !== "test") fail("--type must be live or test");
      const created = await gw.keys.create("operator", {
        name: values.name ?? (values.admin ? "admin" : "key"),
        appId: values.app ?? "default",
        type,
        scopes: values.admin ? ["admin", "complete"] : ["complete"],
        plan: values.plan,
        ...(values.budget !== undefined && { budgetId: values.budget }),
      });
      printKey(created, json);
    } else if (sub === "update") {
      const usage = "usage: svc keys update <key_id> [--budget B|none] [--run-max-calls N|none] [--run-max-repeats N|none] [--run-max-cost-usd X|none]";
      const id = positionals[0] ?? fail(usage);
      // A limit as the API takes it (an integer from 1, or USD from 0 to a billion), or none for the operator's default.
      const limit = (flag: string, v: string | undefined, min: number, max: number, integer: boolean, scale = 1) => {
        if (v === undefined || v === "none") return v === undefined ? undefined : null;
        const n = Number(v);
        if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
          fail(`--${flag} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}, or none`);
        return Math.round(n * scale);
      };
      const runLimits = {
        maxCalls: limit("run-max-calls", values["run-max-calls"], 1, 1_000_000_000, true),
        maxRepeats: limit("run-max-repeats", values["run-max-repeats"], 1, 1_000_000, true),
        maxCostMicros: limit("run-max-cost-usd", values["run-max-cost-usd"], 0, 1_000_000_000, false, 1e6),
      };
      const changed = Object.fromEntries(Object.entries(runLimits).filter(([, v]) => v !== undefined));
      if (values.budget === undefined && Object.keys(changed).length === 0) fail(usage);
      const patch = { ...(values.budget !== undefined && { budgetId: values.budget === "none" ? null : values.budget }), runLimits: changed };
      printKey(await gw.keys.setDefaults("operator", id, patch), json);
    } else if (sub === "list") {
      const list = await gw.keys.list("operator", values.app ?? "default");
      if (json) process.stdout.write(JSON.stringify(list) + "\n");
      else for (const k of list) process.stdout.write(`${k.id}  ${k.status.padEnd(7)}  ${k.type.padEnd(4)}  ${k.prefix}…${k.last4}  ${k.name}\n`);
    } else if (sub === "revoke") {
      const id = positionals[0] ?? fail("usage: svc keys revoke <key_id>");
      printKey(await gw.keys.revoke("operator", id), json);
    } else fail(`unknown keys command '${sub ?? ""}'\n\n${USAGE}`);
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE + "\n");
    return;
  }
  let settings: Settings;
  try {
    settings = loadSettings();
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message);
    throw e;
  }
  switch (command) {
    case "serve": {
      const server = await startServer(settings, createLogger(settings.logLevel));
      const stop = () => server.shutdown().then(() => process.exit(0));
      process.once("SIGTERM", stop);
      process.once("SIGINT", stop);
      return;
    }
    case "keys":
      return keysCommand(settings, args);
    case "optimize":
      return (await import("./optimize-command")).optimizeCommand(settings, process.stdin, process.stdout);
    case "similarity": {
      const { loadEmbedder, modelOptionsOf } = await import("../ml/load");
      const { runSimilarity } = await import("../ml/similarity-cli");
      await runSimilarity(process.stdin, process.stdout, await loadEmbedder(modelOptionsOf(settings)));
      return;
    }
    case "bench": {
      // The benchmark starts and measures its own processes; it runs as one so it can be profiled alone.
      const script = new URL("../../bench/run.ts", import.meta.url).pathname;
      const child = Bun.spawn([process.execPath, script, ...args], { stdio: ["inherit", "inherit", "inherit"] });
      process.exitCode = await child.exited;
      return;
    }
    default:
      fail(`unknown command '${command}'\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((e) => {
  if (e instanceof ApiError) fail(`${e.code}: ${e.message}`, 1);
  fail((e as Error).message ?? String(e), 1);
});
