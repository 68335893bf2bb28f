import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { dataPath } from "./paths";

/** Parse a JSON-lines file, skipping blank lines. */
export function readJsonl<T>(path: string): T[] {
  const text = path.endsWith(".gz") ? gunzipSync(readFileSync(path)).toString("utf8") : readFileSync(path, "utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
}

/** Minimal RFC 4180 CSV reader (quoted fields with doubled quotes and embedded newlines). */
export function readCsv(path: string): string[][] {
  const text = readFileSync(path, "utf8");
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Every prompt-like text in the shared data, unlabelled: the corpus for IDF statistics and self-supervised pairs. */
export function loadPromptCorpus(): string[] {
  const texts: string[] = [];
  for (const r of readJsonl<{ prompt: string }>(dataPath("arena-hard", "v0.1-question.jsonl"))) texts.push(r.prompt);
  for (const r of readJsonl<{ prompt: string }>(dataPath("arena-hard", "v2.0-question.jsonl"))) texts.push(r.prompt);
  for (const f of ["mt-bench", "vicuna-bench"]) for (const r of readJsonl<{ turns: string[] }>(dataPath(f, "question.jsonl"))) texts.push(...r.turns);
  for (const r of readJsonl<{ question: string }>(dataPath("gsm8k", "train.jsonl"))) texts.push(r.question);
  for (const r of readJsonl<{ text: string }>(dataPath("mbpp", "mbpp.jsonl"))) texts.push(r.text);
  for (const r of readJsonl<{ prompt: string }>(dataPath("humaneval", "HumanEval.jsonl.gz"))) texts.push(r.prompt);
  for (const r of readJsonl<{ instruction: string }>(dataPath("self-instruct-user-oriented", "user_oriented_instructions.jsonl"))) texts.push(r.instruction);
  for (const row of readCsv(dataPath("awesome-chatgpt-prompts", "prompts.csv")).slice(1)) if (row[1]) texts.push(row[1]);
  return texts;
}
