import type { ChatMessage } from "../../core/messages";
import { compressMessages, validateCompressOptions } from "./compress";
import { isCompressible } from "./level";
import type { CompressOptions, CompressResult } from "./types";

/** 0-100 similarity of meaning between the original and the compressed prompt text. */
export type QualityScorer = (original: string, compressed: string) => Promise<number> | number;

export const DEFAULT_QUALITY_FLOOR = 85;

export interface QualityFloorOptions extends CompressOptions {
  /** Lowest acceptable score, 0-100; DEFAULT_QUALITY_FLOOR when left out. */
  qualityFloor?: number;
}

export interface QualityCheckedResult extends CompressResult {
  /** Score of what is actually sent (100 when the prompt goes out unchanged). */
  qualityScore: number;
  /** Rules the back-off turned off to clear the floor, in the order it turned them off. */
  rulesUndone: string[];
}

/** The prompt text a scorer compares: every compressible message's content, in order. */
export function promptText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => isCompressible(m.role))
    .map((m) => m.content)
    .join("\n\n");
}

async function scoreOf(scorer: QualityScorer, original: string, compressed: string): Promise<number> {
  if (original === compressed) return 100;
  const score = await scorer(original, compressed);
  if (typeof score !== "number" || !Number.isFinite(score)) throw new TypeError(`quality scorer returned ${String(score)}, not a number`);
  return Math.min(100, Math.max(0, score));
}

/**
 * Compresses at the requested level and, while the scorer rates the result below the floor, undoes the
 * edits that cost the score, one rule at a time (issue 25): of the rules that changed the prompt, the one
 * whose undoing raises the score most is turned off, and so on until the floor is cleared. A risky edit
 * no longer cancels the safe edits of other rules, as stepping the whole level down did. When no rule is
 * left to undo and the floor is still not cleared, the original prompt is sent. The score reported is
 * always that of what is sent.
 */
export async function compressWithQualityFloor(
  messages: readonly ChatMessage[],
  opts: QualityFloorOptions,
  scorer: QualityScorer,
): Promise<QualityCheckedResult> {
  validateCompressOptions(opts);
  const floor = opts.qualityFloor ?? DEFAULT_QUALITY_FLOOR;
  if (!Number.isFinite(floor) || floor < 0 || floor > 100) throw new RangeError(`quality floor must be from 0 to 100, got ${floor}`);
  const original = promptText(messages);
  const undone: string[] = [];
  const attempt = async (skip: readonly string[]) => {
    const result = compressMessages(messages, { ...opts, skipRules: [...opts.skipRules, ...skip] });
    return { result, score: await scoreOf(scorer, original, promptText(result.messages)) };
  };
  let best = await attempt(undone);
  while (best.score < floor && best.result.rulesApplied.length > 0) {
    let next: (typeof best & { rule: string }) | undefined;
    for (const rule of best.result.rulesApplied) {
      const tried = await attempt([...undone, rule]);
      if (!next || tried.score > next.score) next = { ...tried, rule };
    }
    undone.push(next!.rule);
    best = next!;
  }
  // The loop ends: with no rule left to undo the prompt goes out as it came, which scores 100.
  return { ...best.result, qualityScore: best.score, rulesUndone: undone };
}
