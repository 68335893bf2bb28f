import type { CompressionRule, MaskedMessage } from "../types";
import { isRedundantWhenRepeated, repeatedSentences, sentenceKey, splitSentences } from "../text/sentences";
import { removeRanges } from "../text/rewrite";

/** Where each instruction sentence is said last, and which ones a system prompt states. */
interface InstructionIndex {
  lastSaidAt: Map<string, number>;
  inSystem: Set<string>;
}

const indexes = new WeakMap<readonly MaskedMessage[], InstructionIndex>();

function indexOf(conversation: readonly MaskedMessage[]): InstructionIndex {
  let index = indexes.get(conversation);
  if (index) return index;
  index = { lastSaidAt: new Map(), inSystem: new Set() };
  conversation.forEach((message, i) => {
    if (message.role === "tool") return;
    for (const s of splitSentences(message.masked)) {
      const sentence = message.unmask(message.masked.slice(s.start, s.end));
      if (!isRedundantWhenRepeated(sentence)) continue;
      const key = sentenceKey(sentence);
      index!.lastSaidAt.set(key, i);
      if (message.role === "system" || message.role === "developer") index!.inSystem.add(key);
    }
  });
  indexes.set(conversation, index);
  return index;
}

/**
 * An instruction repeated across turns ("Answer in JSON.", "Do not use recursion.") is kept where it
 * matters most: in the system prompt and in the latest turn that says it. Older history loses its
 * copies; the system prompt and the last user turn are never edited by this rule.
 */
export const repeat: CompressionRule = {
  name: "repeat",
  minLevel: 0.25,
  apply(text, ctx) {
    const role = ctx.conversation[ctx.index]?.role;
    // isCareful holds every system and developer message.
    if (ctx.careful || role === "system" || role === "developer") return { text, saved: 0 };
    const { lastSaidAt, inSystem } = indexOf(ctx.conversation);
    const drop = repeatedSentences(text, ctx.originals, (sentence) => {
      const key = sentenceKey(sentence.text);
      return inSystem.has(key) || (lastSaidAt.get(key) ?? -1) > ctx.index;
    });
    return removeRanges(text, drop, ctx);
  },
  mayChange: (_original, { careful }) => !careful,
};
