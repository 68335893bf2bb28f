import { readdirSync, readFileSync } from "node:fs";
import { dataPath } from "./paths";

/** A sentence pair with a gold similarity on the STS scale 0 (unrelated) .. 5 (equivalent). */
export interface ScoredPair {
  a: string;
  b: string;
  score: number;
  /** Where the pair comes from, e.g. `stsb/train`, `semeval/2016/headlines`. */
  source: string;
}

/** STS Benchmark rows are tab-separated with quoting off; some rows carry extra trailing columns. */
export function loadStsBenchmark(split: "train" | "dev"): ScoredPair[] {
  const rows: ScoredPair[] = [];
  for (const line of readFileSync(dataPath("stsbenchmark", `sts-${split}.csv`), "utf8").split("\n")) {
    const cols = line.split("\t");
    if (cols.length < 7) continue;
    const score = Number(cols[4]);
    if (!Number.isFinite(score)) continue;
    rows.push({ a: cols[5]!, b: cols[6]!, score, source: `stsb/${split}` });
  }
  return rows;
}

/** SemEval STS 2012-2016 scored pairs (`score\ta\tb`; an empty score means unlabelled and is skipped). */
export function loadSemEval(years: readonly number[]): ScoredPair[] {
  const rows: ScoredPair[] = [];
  for (const year of years) {
    for (const file of readdirSync(dataPath("semeval-sts", String(year)))
      .filter((f) => f.endsWith(".tsv"))
      .sort()) {
      const source = `semeval/${year}/${file.replace(/\.tsv$/, "")}`;
      for (const line of readFileSync(dataPath("semeval-sts", String(year), file), "utf8").split("\n")) {
        const cols = line.split("\t");
        if (cols.length < 3 || cols[0]!.trim() === "") continue;
        const score = Number(cols[0]);
        if (!Number.isFinite(score)) continue;
        rows.push({ a: cols[1]!, b: cols[2]!, score, source });
      }
    }
  }
  return rows;
}

/** Key of a pair regardless of order and spacing, to find the same pair in two data sets. */
export function pairKey(p: { a: string; b: string }): string {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const [x, y] = [norm(p.a), norm(p.b)].sort();
  return `${x}\u0000${y}`;
}
