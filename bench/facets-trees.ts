/**
 * The cache's facet extraction, source trees side by side, on every string of ../shared/data up to the
 * semantic layer's 1,000 characters (JSON and JSONL leaves, TSV and CSV cells, lines of other text
 * files; distinct, in file order): packFacets of each tree on each string back to back, the first
 * tree first on even strings and last on odd ones. Counts the strings whose packed bytes differ from
 * the first tree's (a faster extraction must give the same facets), and prints each tree's p50 and
 * total time with its ratio to the first tree's.
 *
 *   bun bench/facets-trees.ts --tree old=/path --tree new=.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadTrees } from "./lib/measure";
import { percentile } from "./lib/stats";

const { values: flags } = parseArgs({ args: process.argv.slice(2), options: { tree: { type: "string", multiple: true, default: [] } } });
const MAX_CHARS = 1000;
const DATA = resolve(import.meta.dir, "../../shared/data");

function sharedStrings(root: string): string[] {
  const out = new Set<string>();
  const add = (s: unknown) => {
    if (typeof s === "string" && s.length > 0 && s.length <= MAX_CHARS) out.add(s);
  };
  const leaves = (v: unknown): void => {
    if (typeof v === "string") add(v);
    else if (Array.isArray(v)) v.forEach(leaves);
    else if (v && typeof v === "object") Object.values(v).forEach(leaves);
  };
  const parsed = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) visit(path);
      else if (path.endsWith(".gz")) continue;
      else {
        const text = readFileSync(path, "utf8");
        if (path.endsWith(".jsonl")) for (const line of text.split("\n")) leaves(parsed(line));
        else if (path.endsWith(".json")) leaves(parsed(text));
        else if (path.endsWith(".tsv") || path.endsWith(".csv")) {
          const sep = path.endsWith(".tsv") ? "\t" : ",";
          for (const line of text.split("\n")) for (const cell of line.split(sep)) add(cell.replace(/^"|"$/g, ""));
        } else for (const line of text.split("\n")) add(line);
      }
    }
  };
  visit(root);
  return [...out];
}

interface Tree {
  name: string;
  pack(prompt: string): Uint8Array;
  us: number[];
}

const trees = await loadTrees(flags.tree, async (name, path): Promise<Tree> => {
  const { packFacets } = await import(resolve(path, "src/pipeline/cache/facets.ts"));
  return { name, pack: (p) => packFacets(p).bytes, us: [] };
});
const strings = sharedStrings(DATA);
// Warm-up on the first thousand, not timed.
for (const s of strings.slice(0, 1000)) for (const t of trees) t.pack(s);
let differing = 0;
for (const [i, s] of strings.entries()) {
  const order = i % 2 === 0 ? trees : [...trees].reverse();
  const bytes = new Map<Tree, Uint8Array>();
  for (const t of order) {
    const t0 = performance.now();
    bytes.set(t, t.pack(s));
    t.us.push((performance.now() - t0) * 1000);
  }
  const first = Buffer.from(bytes.get(trees[0]!)!);
  if (trees.some((t) => !first.equals(Buffer.from(bytes.get(t)!)))) differing++;
}

console.log(`# packFacets on ${strings.length} distinct strings of ../shared/data up to ${MAX_CHARS} characters, trees interleaved\n`);
console.log("| tree | p50 µs | total ms | p50 vs first | total vs first |");
console.log("|---|---|---|---|---|");
const total = (t: Tree) => t.us.reduce((a, b) => a + b, 0);
const base = trees[0]!;
for (const t of trees) {
  const p50 = percentile(t.us, 50);
  console.log(
    `| ${t.name} | ${p50.toFixed(1)} | ${(total(t) / 1000).toFixed(0)} | ${(p50 / percentile(base.us, 50)).toFixed(2)}x | ${(total(t) / total(base)).toFixed(2)}x |`,
  );
}
console.log(`\nStrings whose packed facets differ from ${base.name}'s: ${differing} of ${strings.length}`);
