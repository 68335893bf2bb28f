import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERROR_CODES } from "../../src/core/errors";
import { Options } from "../../src/http/validate/completion-request";
import { ERROR_STATUS, SVC_META_FIELDS, SVC_OPTION_FIELDS } from "../../clients/typescript/src/index.ts";
import { fullestMeta } from "./server-fields";

const ROOT = join(import.meta.dir, "..", "..");

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
      writeFileSync(
        config,
        JSON.stringify({
          extends: join(ROOT, "tsconfig.json"),
          compilerOptions: { noEmit: true, typeRoots: [join(ROOT, "node_modules", "@types")] },
          include: [],
          files: [join(import.meta.dir, "drift-types.ts")],
        }),
      );
      const proc = Bun.spawn([process.execPath, join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", config], {
        cwd: ROOT,
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(`${out}${err}`).toBe("");
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
