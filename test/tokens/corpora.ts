import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";

import { requires, SHARED } from "../support/services";

/** Real prompts from the shared data folder beside the project, read at test time (never copied in). */
export const DATA = join(SHARED, "data");
export const haveData = await requires("shared");

const jsonl = (path: string): Record<string, unknown>[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Each corpus: a name and its texts (prompts, and for code sets their solutions and tests too). */
export function corpora(): Record<string, string[]> {
  const arena = [...jsonl(join(DATA, "arena-hard", "v0.1-question.jsonl")), ...jsonl(join(DATA, "arena-hard", "v2.0-question.jsonl"))];
  const humaneval = gunzipSync(readFileSync(join(DATA, "humaneval", "HumanEval.jsonl.gz")))
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const awesome = parse(readFileSync(join(DATA, "awesome-chatgpt-prompts", "prompts.csv"), "utf8"), { columns: true }) as Record<string, string>[];
  return {
    "arena-hard": arena.map((j) => str(j.prompt)),
    gsm8k: jsonl(join(DATA, "gsm8k", "train.jsonl"))
      .slice(0, 1000)
      .flatMap((j) => [str(j.question), str(j.answer)]),
    humaneval: humaneval.flatMap((j) => [str(j.prompt), str(j.canonical_solution), str(j.test)]),
    mbpp: jsonl(join(DATA, "mbpp", "mbpp.jsonl")).flatMap((j) => [str(j.text), str(j.code)]),
    "awesome-chatgpt-prompts": awesome.map((r) => r.prompt ?? ""),
  };
}
