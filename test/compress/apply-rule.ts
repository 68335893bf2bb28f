import type { ChatMessage } from "../../src/core/messages";
import { mask, unmask } from "../../src/pipeline/compress/protect/mask";
import type { CompressionRule, MaskedMessage, RuleContext } from "../../src/pipeline/compress/types";
import { countTokens } from "../../src/tokens/count";

export interface RuleRun {
  /** The rule's output with protected spans put back. */
  text: string;
  saved: number;
}

/** Runs one rule alone on `messages[index]`, masked as the pipeline masks it. */
export function applyRule(
  rule: CompressionRule,
  messages: ChatMessage[] | string,
  opts: { level?: number; careful?: boolean; index?: number; changedBy?: string[] } = {},
): RuleRun {
  const conversation = typeof messages === "string" ? [{ role: "user" as const, content: messages }] : messages;
  const maskings = conversation.map((m) => mask(m.content)!);
  const views: MaskedMessage[] = conversation.map((m, i) => ({
    role: m.role,
    masked: maskings[i]!.masked,
    unmask: (f: string) => unmask(f, maskings[i]!.originals),
  }));
  const index = opts.index ?? conversation.length - 1;
  const view = views[index]!;
  const ctx: RuleContext = {
    level: opts.level ?? 1,
    careful: opts.careful ?? false,
    conversation: views,
    index,
    changedBy: new Set(opts.changedBy ?? []),
    unmask: view.unmask,
    originals: maskings[index]!.originals,
    tokens: (f) => countTokens(view.unmask(f)),
  };
  const out = rule.apply(view.masked, ctx);
  return { text: view.unmask(out.text), saved: out.saved };
}
