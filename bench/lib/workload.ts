import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "../../src/tokens/count";
import { ROOT } from "./processes";

/** Real sentences people wrote (STS Benchmark train split), read at run time from the shared data folder. */
const STS_TRAIN = join(ROOT, "..", "shared", "data", "stsbenchmark", "sts-train.csv");

/** Every stage off with an explicit model: the gateway as a pure relay. */
export const RELAY_OPTIONS = { compress: false, route: false, cache: false, score: false } as const;

export const RELAY_MODEL = "gpt-4o-mini";

/**
 * The prompts the benchmark sends: about `targetTokens` tokens of real English each, built from
 * whole sentences so compression, routing and the cache see text shaped like a user's.
 */
export interface Workload {
  sentences: string[];
  /** How many sentences make a prompt of about `targetTokens` tokens. */
  sentencesPerPrompt: number;
  /** One fixed prompt: the body of the relay, cache-hit and peer requests. */
  fixedPrompt: string;
  /** o200k tokens of `fixedPrompt`. */
  fixedPromptTokens: number;
}

export function loadWorkload(targetTokens = 300): Workload {
  if (!existsSync(STS_TRAIN)) throw new Error(`the benchmark builds its prompts from ${STS_TRAIN}, which is missing`);
  const seen = new Set<string>();
  for (const line of readFileSync(STS_TRAIN, "utf8").split("\n")) {
    const cols = line.split("\t");
    for (const s of [cols[5], cols[6]]) if (s && s.length > 20 && s.length < 200) seen.add(s.trim());
  }
  const sentences = [...seen];
  if (sentences.length === 0) throw new Error(`${STS_TRAIN} holds no sentence of 20 to 200 characters to build prompts from`);
  // Every sentence, not the file's head: it opens with short captions ("A plane is taking off."), and
  // a head of 500 sized the prompts at 480 tokens, not 300.
  const perSentence = countTokens(sentences.join(" ")) / sentences.length;
  const sentencesPerPrompt = Math.max(1, Math.round(targetTokens / perSentence));
  // Every 97th sentence: spread over the file, so the fixed prompt is not one topic. Taken until the
  // target is reached, not by the mean: a fixed count of these sentences came to 199 tokens.
  const picked: string[] = [];
  while (countTokens(picked.join(" ")) < targetTokens) picked.push(sentences[(picked.length * 97) % sentences.length]!);
  const fixedPrompt = picked.join(" ");
  return { sentences, sentencesPerPrompt, fixedPrompt, fixedPromptTokens: countTokens(fixedPrompt) };
}

/** A prompt from the same distribution as the wrk script's varied ones (a seeded pick of sentences). */
export function variedPrompt(w: Workload, seed: number): string {
  let x = seed >>> 0 || 1;
  const picks: string[] = [];
  for (let i = 0; i < w.sentencesPerPrompt; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    picks.push(w.sentences[x % w.sentences.length]!);
  }
  return `Request ${seed}. ${picks.join(" ")}`;
}

export type BodyKind = "openai" | "relay" | "auto";

/** The JSON body for one prompt: plain OpenAI for peers, with svc_options for the gateway's configurations. */
export function requestBody(kind: BodyKind, prompt: string, stream = false): Record<string, unknown> {
  const messages = [{ role: "user", content: prompt }];
  const streamPart = stream ? { stream: true } : {};
  if (kind === "openai") return { model: RELAY_MODEL, messages, ...streamPart };
  if (kind === "relay") return { model: RELAY_MODEL, messages, ...streamPart, svc_options: RELAY_OPTIONS };
  return { model: "auto", messages, ...streamPart };
}

/** The placeholder the wrk script replaces with a fresh prompt per request. */
export const PROMPT_SLOT = "__BENCH_PROMPT__";

/**
 * Files the wrk script reads: the body template (with PROMPT_SLOT where the prompt goes when
 * prompts vary) and the sentences, one JSON-escaped per line so the script can splice them in.
 */
export function writeWrkInputs(dir: string, w: Workload): { sentencesFile: string } {
  const sentencesFile = join(dir, "sentences.txt");
  writeFileSync(sentencesFile, w.sentences.map((s) => JSON.stringify(s).slice(1, -1)).join("\n") + "\n");
  return { sentencesFile };
}
