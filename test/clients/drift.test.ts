import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERROR_CODES } from "../../src/http/errors";
import { Options } from "../../src/http/validate/completion-request";
import { buildMeta, type MetaInput } from "../../src/pipeline/meta";
import type { OptimizeResult } from "../../src/pipeline/optimize-types";
import { ERROR_STATUS, SVC_META_FIELDS, SVC_OPTION_FIELDS } from "../../clients/typescript/src/index.ts";

const ROOT = join(import.meta.dir, "..", "..");

/** buildMeta with every optional field switched on, so every field the server can send is present. */
function fullestMeta() {
  const input: MetaInput = {
    opt: { compressionRatio: 0.4, qualityScore: 97, rulesApplied: ["filler"], piiMasked: true } as unknown as OptimizeResult,
    originalTokens: 100,
    compressedTokens: 60,
    costs: { cost_original_usd: 0.001, cost_actual_usd: 0.0004, saved_usd: 0.0006 },
    reason: "code_task",
    modelRequested: "auto",
    cacheHit: false,
    overheadMs: 3,
    score: true,
    conversationId: "conv_1",
    simulated: true,
  };
  return buildMeta(input);
}

describe("the TypeScript client's types against the server's own", () => {
  test("svc_options: the server schema's field names are the client's", () => {
    expect(([...SVC_OPTION_FIELDS] as string[]).sort()).toEqual(Object.keys(Options.properties).sort());
  });

  test("svc_meta: every field the server's meta builder writes is one the client knows", () => {
    const unknown = Object.keys(fullestMeta()).filter((k) => !(SVC_META_FIELDS as readonly string[]).includes(k));
    expect(unknown).toEqual([]);
  });

  test("error codes and their statuses are the server's", () => {
    const server = Object.fromEntries(Object.entries(ERROR_CODES).map(([code, e]) => [code, e.status]));
    expect(ERROR_STATUS).toEqual(server as typeof ERROR_STATUS);
  });

  test("tsc accepts the compile-time check (field types and optionality)", async () => {
    // The type-level check in drift-types.ts, compiled alone so `npm test` fails on drift too, not only CI's typecheck.
    const dir = mkdtempSync(join(tmpdir(), "clients-drift-"));
    try {
      const config = join(dir, "tsconfig.json");
      writeFileSync(config, JSON.stringify({ extends: join(ROOT, "tsconfig.json"), compilerOptions: { noEmit: true, typeRoots: [join(ROOT, "node_modules", "@types")] }, include: [], files: [join(import.meta.dir, "drift-types.ts")] }));
      const proc = Bun.spawn([process.execPath, join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", config], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(`${out}${err}`).toBe("");
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
