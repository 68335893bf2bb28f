import type { ChatMessage } from "../../core/messages";
import { compressMessages, RULE_NAMES, validateCompressOptions } from "./compress";
import { isCompressible } from "./level";
import type { CompressOptions, CompressResult } from "./types";

/** 0-100 similarity of meaning between the original and the compressed prompt text. */
export type QualityScorer = (original: string, compressed: string) => Promise<number> | number;

export const DEFAULT_QUALITY_FLOOR = 85;
/** Each back-off step lowers the level by this much, down to 0 (whitespace only). */
const BACK_OFF_STEP = 0.25;

export interface QualityFloorOptions extends CompressOptions {
  /** Lowest acceptable score, 0-100; DEFAULT_QUALITY_FLOOR when left out. */
  qualityFloor?: number;
}

export interface QualityCheckedResult extends CompressResult {
  /** Score of what is actually sent (100 when the prompt goes out unchanged). */
  qualityScore: number;
  /** Aggressiveness that produced what is sent. */
  levelUsed: number;
}

/** The prompt text a scorer compares: every compressible message's content, in order. */
export function promptText(messages: readonly ChatMessage[]): string {
  return messages
    .filter((m) => isCompressible(m.role))
    .map((m) => m.content)
    .join("\n\n");
}

/** Levels tried, the requested one first, then gentler ones down to 0. */
export function backOffLevels(requested: number): number[] {
  const levels = [requested];
  for (let level = Math.ceil(requested / BACK_OFF_STEP - 1e-9) * BACK_OFF_STEP - BACK_OFF_STEP; level > 1e-9; level -= BACK_OFF_STEP) {
    levels.push(Math.round(level * 100) / 100);
  }
  if (requested > 0) levels.push(0);
  return levels;
}

async function scoreOf(scorer: QualityScorer, original: string, compressed: string): Promise<number> {
  if (original === compressed) return 100;
  const score = await scorer(original, compressed);
  if (typeof score !== "number" || !Number.isFinite(score)) throw new TypeError(`quality scorer returned ${String(score)}, not a number`);
  return Math.min(100, Math.max(0, score));
}

/**
 * Compresses at the requested level and, while the scorer rates the result below the floor, backs
 * off to gentler levels. When even whitespace-only compression scores below the floor, the original
 * prompt is sent. The score reported is always that of what is sent.
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
  let lastText: string | null = null;
  let lastScore = 0;
  for (const level of backOffLevels(opts.aggressiveness)) {
    const result = compressMessages(messages, { ...opts, aggressiveness: level });
    const text = promptText(result.messages);
    // A gentler level often changes nothing more; the score of the same text is already known.
    const score = text === lastText ? lastScore : await scoreOf(scorer, original, text);
    lastText = text;
    lastScore = score;
    if (score >= floor) return { ...result, qualityScore: score, levelUsed: level };
  }
  // With every rule skipped the compressor sends the prompt as it came, with its token count.
  const asSent = compressMessages(messages, { ...opts, aggressiveness: 0, skipRules: RULE_NAMES });
  return { ...asSent, qualityScore: 100, levelUsed: 0 };
}
