import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";

/**
 * Readers for the public corpora in ../shared/data (see its README). Used offline only: by the
 * word-statistics build and by bench/compress-eval.ts. Nothing here ships in the request path.
 */
export const DATA_DIR = join(import.meta.dir, "..", "..", "..", "shared", "data");

/** One prompt as a user would send it: one or more user turns. */
export interface CorpusPrompt {
  id: string;
  turns: string[];
}

function jsonLines(path: string): Record<string, unknown>[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function requireFile(path: string): string {
  if (!existsSync(path)) throw new Error(`corpus file missing: ${path} (expected the shared data checkout next to the project)`);
  return path;
}

export function awesomeChatgptPrompts(): CorpusPrompt[] {
  const rows = parse(readFileSync(requireFile(join(DATA_DIR, "awesome-chatgpt-prompts", "prompts.csv")), "utf8"), {
    columns: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as { act: string; prompt: string }[];
  return rows.filter((r) => r.prompt?.trim()).map((r, i) => ({ id: `awesome-${i}`, turns: [r.prompt] }));
}

export function selfInstruct(): CorpusPrompt[] {
  return jsonLines(requireFile(join(DATA_DIR, "self-instruct-user-oriented", "user_oriented_instructions.jsonl"))).map((r) => {
    const first = (r.instances as { input: string }[] | undefined)?.[0]?.input ?? "";
    return { id: String(r.id), turns: [first.trim() ? `${r.instruction}\n\n${first}` : String(r.instruction)] };
  });
}

export function arenaHard(): CorpusPrompt[] {
  return jsonLines(requireFile(join(DATA_DIR, "arena-hard", "v2.0-question.jsonl"))).map((r) => ({ id: String(r.uid), turns: [String(r.prompt)] }));
}

export function mtBench(): CorpusPrompt[] {
  return jsonLines(requireFile(join(DATA_DIR, "mt-bench", "question.jsonl"))).map((r) => ({ id: `mt-${r.question_id}`, turns: r.turns as string[] }));
}

export function vicunaBench(): CorpusPrompt[] {
  return jsonLines(requireFile(join(DATA_DIR, "vicuna-bench", "question.jsonl"))).map((r) => ({ id: `vicuna-${r.question_id}`, turns: r.turns as string[] }));
}

export function gsm8k(limit = Infinity): CorpusPrompt[] {
  return jsonLines(requireFile(join(DATA_DIR, "gsm8k", "train.jsonl")))
    .slice(0, limit)
    .map((r, i) => ({ id: `gsm8k-${i}`, turns: [String(r.question)] }));
}

/** Plain English sentences and chat lines: general language, not prompts. */
export function generalEnglish(): string[] {
  const out: string[] = [];
  for (const file of ["sts-train.csv", "sts-dev.csv"]) {
    for (const line of readFileSync(requireFile(join(DATA_DIR, "stsbenchmark", file)), "utf8").split("\n")) {
      const cols = line.split("\t");
      if (cols.length >= 7) out.push(cols[5]!, cols[6]!);
    }
  }
  for (const year of readdirSync(join(DATA_DIR, "semeval-sts"))) {
    const dir = join(DATA_DIR, "semeval-sts", year);
    if (!/^\d{4}$/.test(year)) continue;
    for (const file of readdirSync(dir)) {
      if (!file.endsWith(".tsv")) continue;
      for (const line of readFileSync(join(dir, file), "utf8").split("\n")) out.push(...line.split("\t").slice(1));
    }
  }
  for (const file of ["valid_freq.json", "valid_rare.json"]) {
    const chats = JSON.parse(readFileSync(requireFile(join(DATA_DIR, "topical-chat", file)), "utf8")) as Record<string, { content: { message: string }[] }>;
    for (const chat of Object.values(chats)) for (const turn of chat.content) out.push(turn.message);
  }
  return out;
}
