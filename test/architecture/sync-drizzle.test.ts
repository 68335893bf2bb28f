import { describe, expect, test } from "bun:test";
import { join, relative, resolve } from "node:path";
import * as ts from "typescript";

/**
 * The store's query builder is typed as drizzle's SQLite one on both databases (Db in src/store/db.ts),
 * so a synchronous `.run()`, `.get()` or `.all()` compiles everywhere and fails only on PostgreSQL,
 * where the builder must be awaited. This rule finds, with the type checker, every call of those on a
 * drizzle SQLite builder or prepared query in src/ and workers/, and allows it only inside the branch of
 * an `if` on `dialect === "sqlite"` (the SQLite-only code).
 */
const ROOT = resolve(import.meta.dir, "../..");
const FIXTURE = join(import.meta.dir, "fixtures", "sync-drizzle.ts");
const SYNC = new Set(["run", "get", "all", "values"]);

function syncCalls(files: string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: ["bun"],
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    strict: true,
  });
  const checker = program.getTypeChecker();
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!files.includes(sf.fileName)) continue;
    const visit = (n: ts.Node) => {
      if (
        ts.isCallExpression(n) &&
        ts.isPropertyAccessExpression(n.expression) &&
        SYNC.has(n.expression.name.text) &&
        isSyncDrizzle(checker, n.expression.name) &&
        !inSqliteBranch(n)
      ) {
        found.push(`${relative(ROOT, sf.fileName)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1} .${n.expression.name.text}()`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

/** Declared by drizzle's SQLite core as a synchronous executor (an insert builder's `.values(...)` sets rows; it is not one). */
function isSyncDrizzle(checker: ts.TypeChecker, name: ts.MemberName): boolean {
  const file = checker.getSymbolAtLocation(name)?.declarations?.[0]?.getSourceFile().fileName ?? "";
  return file.includes("drizzle-orm/sqlite-core/") && !(name.text === "values" && file.endsWith("insert.d.ts"));
}

function inSqliteBranch(node: ts.Node): boolean {
  for (let n: ts.Node = node; n.parent; n = n.parent) {
    const p = n.parent;
    if (ts.isIfStatement(p) && p.thenStatement === n && /\bdialect\s*===\s*"sqlite"/.test(p.expression.getText())) return true;
  }
  return false;
}

const sources = (dir: string) => Array.from(new Bun.Glob("**/*.ts").scanSync({ cwd: join(ROOT, dir), absolute: true }));

describe("synchronous drizzle calls", () => {
  test("the rule flags a sync call on the store's builder and lets the SQLite-only branch and awaited builders pass", () => {
    expect(syncCalls([FIXTURE])).toEqual([
      "test/architecture/fixtures/sync-drizzle.ts:8 .all()",
      "test/architecture/fixtures/sync-drizzle.ts:9 .get()",
      "test/architecture/fixtures/sync-drizzle.ts:10 .run()",
    ]);
  }, 180_000);

  test("src/ and workers/ call none outside SQLite-only code", () => {
    const files = [...sources("src"), ...sources("workers")].filter((f) => !f.includes("/src/http/dashboard/ui/"));
    expect(syncCalls(files)).toEqual([]);
  }, 300_000);
});
