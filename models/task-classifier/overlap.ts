/**
 * Checks that a hand-written prompt file has no near-copy among the rows the classifier trains on or the
 * other hold-outs: a row fails when its set of lower-cased words overlaps another row's by more than 60%
 * (Jaccard), the bar data/README.md uses for every authored file.
 *
 *   bun models/task-classifier/overlap.ts data/fresh-holdout-2.jsonl
 */
import { dirname, join, resolve } from "node:path";
import { readJsonl } from "../data/corpus";
import { type LabelledPrompt, loadLabelledPrompts, writtenDevSets } from "./split";

export const MAX_WORD_OVERLAP = 0.6;

export function wordSet(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Each candidate whose words overlap some reference row by more than MAX_WORD_OVERLAP, with that row. */
export function nearCopies(candidates: string[], references: { id: string; text: string }[]): { text: string; id: string; overlap: number }[] {
  const refs = references.map((r) => ({ id: r.id, words: wordSet(r.text) }));
  const found: { text: string; id: string; overlap: number }[] = [];
  for (const text of candidates) {
    const words = wordSet(text);
    let best = { id: "", overlap: 0 };
    for (const r of refs) {
      const overlap = jaccard(words, r.words);
      if (overlap > best.overlap) best = { id: r.id, overlap };
    }
    if (best.overlap > MAX_WORD_OVERLAP) found.push({ text, ...best });
  }
  return found;
}

if (import.meta.main) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: bun models/task-classifier/overlap.ts <jsonl relative to models/task-classifier>");
  const path = resolve(import.meta.dir, file);
  const candidates = readJsonl<{ text: string }>(path).map((r) => r.text);
  // A file the loaders read is among the references itself: drop one copy of each of its rows, so that
  // a row is not compared with itself but a second copy elsewhere still counts.
  const own = new Map<string, number>();
  if (dirname(path) === join(import.meta.dir, "data")) for (const t of candidates) own.set(t, (own.get(t) ?? 0) + 1);
  const references: LabelledPrompt[] = [...loadLabelledPrompts(), ...Object.values(writtenDevSets()).flat()].filter((r) => {
    const left = own.get(r.text) ?? 0;
    if (left > 0) own.set(r.text, left - 1);
    return left === 0;
  });
  const found = nearCopies(candidates, references);
  for (const f of found) console.log(`${f.overlap.toFixed(2)}  ${f.id}  ${JSON.stringify(f.text.slice(0, 100))}`);
  console.log(`${found.length} of ${candidates.length} rows overlap a training or hold-out row by more than ${MAX_WORD_OVERLAP * 100}%`);
  if (found.length > 0) process.exitCode = 1;
}
