import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PARSER_FLAG } from "../../src/config/config";

/**
 * The `svc` command's first line launches Bun with the allocator setting (README, MIMALLOC_PURGE_HOLES)
 * and the parser's header limit. A script with that same line reports what it was started with, so the
 * line is tested as the kernel and env run it: the setting is a default that the user's own value beats.
 */
const ROOT = join(import.meta.dir, "..", "..");
const SHEBANG = readFileSync(join(ROOT, "src", "cli", "main.ts"), "utf8").split("\n")[0]!;
const script = join(mkdtempSync(join(tmpdir(), "svc-launch-")), "probe.ts");
writeFileSync(
  script,
  `${SHEBANG}\nconsole.log(JSON.stringify({ holes: process.env.MIMALLOC_PURGE_HOLES ?? null, args: process.argv.slice(2), execArgv: process.execArgv }));\n`,
);
chmodSync(script, 0o755);

function launch(env: Record<string, string>, args: string[]) {
  // `bun` as an npm install puts it on the PATH of `npm run` and of a user who installed svc's bin.
  const path = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;
  const r = Bun.spawnSync([script, ...args], { env: { PATH: path, ...env } });
  expect(r.exitCode).toBe(0);
  return JSON.parse(r.stdout.toString()) as { holes: string | null; args: string[]; execArgv: string[] };
}

describe("the svc command's launch line", () => {
  test("sets MIMALLOC_PURGE_HOLES=0 when the user has not, and passes every argument through unchanged", () => {
    const out = launch({}, ["keys", "create", "--name", "two words"]);
    expect(out.holes).toBe("0");
    expect(out.args).toEqual(["keys", "create", "--name", "two words"]);
  });

  test("keeps the user's own MIMALLOC_PURGE_HOLES", () => {
    expect(launch({ MIMALLOC_PURGE_HOLES: "1" }, ["serve"]).holes).toBe("1");
  });

  test("starts Bun with the parser's header limit", () => {
    expect(launch({}, []).execArgv).toContain(PARSER_FLAG);
  });
});
