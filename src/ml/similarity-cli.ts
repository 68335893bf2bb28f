import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { cosineOfUnit } from "./cosine";
import type { Embedder } from "./types";

/** One output line of `svc similarity`. */
export type SimilarityLine = { similarity: number } | { error: { message: string; type: "invalid_request_error"; code: "VALIDATION_ERROR"; line: number } };

function parse(line: string): { a: string; b: string } | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "line is not valid JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return 'line must be a JSON object {"a": string, "b": string}';
  const { a, b } = value as Record<string, unknown>;
  if (typeof a !== "string") return "field a must be a string";
  if (typeof b !== "string") return "field b must be a string";
  return { a, b };
}

/**
 * `svc similarity` (CONTRACT.md): reads `{"a", "b"}` JSON lines, writes one `{"similarity"}` line per
 * input line, in order: the cosine of the two embeddings, -1..1. A bad line gets an error line and the
 * rest go on; blank lines are skipped. Resolves with the number of lines answered.
 */
export async function runSimilarity(input: Readable, output: Writable, embedder: Embedder): Promise<number> {
  let lineNo = 0;
  let answered = 0;
  for await (const raw of createInterface({ input, crlfDelay: Infinity })) {
    lineNo++;
    if (raw.trim() === "") continue;
    const parsed = parse(raw);
    let out: SimilarityLine;
    if (typeof parsed === "string") out = { error: { message: parsed, type: "invalid_request_error", code: "VALIDATION_ERROR", line: lineNo } };
    else {
      const [x, y] = [await embedder.embed(parsed.a), await embedder.embed(parsed.b)];
      out = { similarity: Math.max(-1, Math.min(1, cosineOfUnit(x, y))) };
    }
    if (!output.write(`${JSON.stringify(out)}\n`)) await new Promise((resolve) => output.once("drain", resolve));
    answered++;
  }
  return answered;
}
