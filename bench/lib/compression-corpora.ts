import type { ChatMessage } from "../../src/core/messages";
import { arenaHard, awesomeChatgptPrompts, gsm8k, mtBench, selfInstruct, type CorpusPrompt } from "../../models/word-stats/corpora";

/**
 * The real prompts the compression benchmarks run on, and how they time the stage: shared by
 * compress-eval.ts (removal, quality, speed) and compress-speed.ts (speed, trees side by side) so that
 * their speed figures are over the same prompts, timed the same way.
 */
export const GSM8K_LIMIT = 1000;
/** Per-1k-token speed is reported for prompts at least this long; shorter ones are fixed overhead. */
export const SPEED_MIN_TOKENS = 200;
export const TIMED_RUNS = 3;

export interface Corpus {
  name: string;
  kind: "verbose" | "terse";
  prompts: CorpusPrompt[];
}

export function compressionCorpora(): Corpus[] {
  return [
    { name: "awesome-chatgpt-prompts", kind: "verbose", prompts: awesomeChatgptPrompts() },
    { name: "self-instruct", kind: "verbose", prompts: selfInstruct() },
    { name: "arena-hard v2.0", kind: "verbose", prompts: arenaHard() },
    // Each mt-bench turn is a prompt of its own: the second turns are follow-ups, still terse.
    { name: "mt-bench", kind: "terse", prompts: mtBench().flatMap((p) => p.turns.map((t, i) => ({ id: `${p.id}-${i + 1}`, turns: [t] }))) },
    { name: `gsm8k (first ${GSM8K_LIMIT})`, kind: "terse", prompts: gsm8k(GSM8K_LIMIT) },
  ];
}

/** A corpus prompt as the gateway would get it: its turns as user messages. */
export const asConversation = (p: CorpusPrompt): ChatMessage[] => p.turns.map((content) => ({ role: "user", content }));

/** The fastest of `runs` (TIMED_RUNS) runs, ms: the stage's own cost, with a collection or a preemption left out. */
export function bestOf(run: () => unknown, runs = TIMED_RUNS): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}
