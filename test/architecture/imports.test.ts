import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * Imports point down: HTTP -> pipeline -> stages and providers -> core. Every relative import of
 * src/ and workers/ is read from the source text (type-only ones included: a type import the wrong
 * way still ties the layers together), and runtime imports must form no cycle.
 */
const ROOT = resolve(import.meta.dir, "../..");

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;"]*?)\s*from\s*"([^"]+)"|(?:^|\n)\s*import\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

/** The relative imports of one file, resolved to paths from the project root. */
export function importsOf(file: string, text: string): Edge[] {
  const edges: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[4] ?? m[5] ?? m[6]!;
    if (!spec.startsWith(".")) continue;
    const names = m[3] ?? "";
    const onlyTypes =
      /^\{[^}]*\}$/.test(names.trim()) &&
      names
        .slice(1, -1)
        .split(",")
        .every((n) => n.trim() === "" || /^type\s/.test(n.trim()));
    const typeOnly = m[2] !== undefined || (m[4] !== undefined && onlyTypes);
    const target = relative(ROOT, resolve(dirname(join(ROOT, file)), spec)).replace(/\.ts$/, "");
    edges.push({ from: file.replace(/\.ts$/, ""), to: target, typeOnly });
  }
  return edges;
}

const ENTRY_POINTS = [/^src\/server$/, /^src\/cli\//, /^workers\/[^/]+\.worker$/];
const isEntry = (f: string) => ENTRY_POINTS.some((re) => re.test(f));
const under = (f: string, dir: string) => f === dir || f.startsWith(dir + "/");

/** Each rule: files it applies to, and the imports they may not make. */
const RULES: { name: string; from: (f: string) => boolean; to: (t: string) => boolean }[] = [
  { name: "core imports only core", from: (f) => under(f, "src/core"), to: (t) => !under(t, "src/core") },
  { name: "pipeline -> gateway or http", from: (f) => under(f, "src/pipeline"), to: (t) => t === "src/gateway" || under(t, "src/http") },
  { name: "providers -> pipeline or http", from: (f) => under(f, "src/providers"), to: (t) => under(t, "src/pipeline") || under(t, "src/http") },
  { name: "ml -> pipeline", from: (f) => under(f, "src/ml"), to: (t) => under(t, "src/pipeline") },
  { name: "anything -> http (but http itself and the entry points)", from: (f) => !under(f, "src/http") && !isEntry(f), to: (t) => under(t, "src/http") },
  { name: "anything -> gateway (but the entry points)", from: (f) => !isEntry(f), to: (t) => t === "src/gateway" },
  { name: "http/routes -> http/app", from: (f) => under(f, "src/http/routes"), to: (t) => t === "src/http/app" },
  // Text helpers two pipeline parts share live in src/text: PII masking does not reach into compression.
  { name: "pipeline/pii -> pipeline/compress", from: (f) => under(f, "src/pipeline/pii"), to: (t) => under(t, "src/pipeline/compress") },
];

export function violations(edges: Edge[]): string[] {
  const out: string[] = [];
  for (const e of edges) for (const r of RULES) if (r.from(e.from) && r.to(e.to)) out.push(`${r.name}: ${e.from} imports ${e.to}`);
  return out;
}

/** Cycles among runtime imports (a type-only import is erased and cannot make one), each as its path. */
export function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (!e.typeOnly) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    path.push(n);
    for (const t of next.get(n) ?? []) {
      if (state.get(t) === "open") found.push([...path.slice(path.indexOf(t)), t]);
      else if (!state.has(t)) visit(t);
    }
    path.pop();
    state.set(n, "done");
  };
  for (const n of next.keys()) if (!state.has(n)) visit(n);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => relative(ROOT, join(d.parentPath, d.name)));
}

const edges = [...sources("src"), ...sources("workers")].flatMap((f) => importsOf(f, readFileSync(join(ROOT, f), "utf8")));

describe("import direction", () => {
  test("src/ and workers/ import only downwards", () => {
    expect(edges.length).toBeGreaterThan(300);
    expect(violations(edges)).toEqual([]);
  });

  test("no runtime import cycle", () => {
    expect(cycles(edges).map((c) => c.join(" -> "))).toEqual([]);
  });

  test("the checks catch a wrong-way import and a cycle", () => {
    const planted = [
      ...importsOf("src/pipeline/x.ts", 'import { ApiError } from "../http/errors";\nimport type { Gateway } from "../gateway";'),
      ...importsOf("src/providers/y.ts", 'import type { ChatMessage } from "../pipeline/messages";'),
      ...importsOf("src/ml/z.ts", 'import { SynonymTable } from "../pipeline/cache/synonyms";'),
      ...importsOf("src/auth/w.ts", 'export { ApiError } from "../http/errors";'),
      ...importsOf("src/http/routes/v.ts", 'import { registerRoute } from "../app";'),
      ...importsOf("src/pipeline/pii/tagger/u.ts", 'import { FoldedWordTable } from "../../compress/text/word-table";'),
    ];
    // Two rules each for the pipeline file's two imports (its own rule and the one for http, or for the gateway).
    expect(violations(planted)).toHaveLength(9);
    const loop = [
      ...importsOf("src/a.ts", 'import { b } from "./b";'),
      ...importsOf("src/b.ts", 'import { a } from "./a";'),
      ...importsOf("src/c.ts", 'import type { a } from "./a";'),
    ];
    expect(cycles(loop)).toEqual([["src/a", "src/b", "src/a"]]);
    expect(cycles(importsOf("src/b.ts", 'import { type A } from "./a";').concat(importsOf("src/a.ts", 'import { b } from "./b";')))).toEqual([]);
  });
});
