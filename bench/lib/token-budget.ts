import { protectedSpans } from "../../src/pipeline/compress/protect/spans";
import { countTokens } from "../../src/tokens/count";

/**
 * English's closed word classes: articles and determiners, pronouns, prepositions, conjunctions,
 * auxiliaries and modals, and the commonest hedges. Generous on purpose: the budget below reads it as
 * the most that dropping grammar words could ever save, so a word left out would understate that.
 */
const CLOSED_CLASS: ReadonlySet<string> = new Set(
  (
    "a an the this that these those some any each every either neither no all both few many much more most such what which whose " +
    "i me my mine myself you your yours yourself we us our ours he him his she her hers it its they them their theirs who whom " +
    "of to in for on with at by from as into onto about over under above below between through during before after against among " +
    "up down out off upon within without via per than like " +
    "and or but nor so yet if then because while although though unless until whether " +
    "is are was were be been being am do does did have has had will would shall should can could may might must " +
    "not also just very really quite only even too please there here " +
    "i'm i've i'll i'd you're you've you'll you'd he's she's it's we're we've we'll we'd they're they've they'll they'd " +
    "that's there's what's who's let's don't doesn't didn't isn't aren't wasn't weren't can't couldn't won't wouldn't " +
    "shouldn't haven't hasn't hadn't mustn't"
  ).split(" "),
);

/** Where a text's tokens are, in o200k tokens; the parts may not add up to `total` by a few tokens (see `rest`). */
export interface TokenBudget {
  total: number;
  /** Inside spans the guards keep byte for byte (code, quotes, numbers, entities, negations, constraints...). */
  protected: number;
  /** Outside them: runs of punctuation and symbols (markdown, JSON, list markers). */
  symbols: number;
  /** Outside them: words of CLOSED_CLASS. */
  closedClass: number;
  /** Outside them: every other word. */
  otherWords: number;
}

const PIECE = /[\p{L}\p{N}'’]+|[^\p{L}\p{N}'’\s]+/gu;

/**
 * The token budget of one text: how its tokens split between protected spans, symbols, closed-class
 * words and other words. Each word is counted with the space before it, as the tokenizer reads it mid
 * sentence; whitespace and the merges across piece boundaries are left to `total` minus the parts.
 */
export function tokenBudget(text: string): TokenBudget {
  const budget: TokenBudget = { total: countTokens(text), protected: 0, symbols: 0, closedClass: 0, otherWords: 0 };
  let at = 0;
  const free: string[] = [];
  for (const span of protectedSpans(text)) {
    budget.protected += countTokens(text.slice(span.start, span.end));
    free.push(text.slice(at, span.start));
    at = span.end;
  }
  free.push(text.slice(at));
  for (const part of free) {
    for (const [piece] of part.matchAll(PIECE)) {
      const tokens = countTokens(` ${piece}`);
      if (!/[\p{L}\p{N}]/u.test(piece)) budget.symbols += tokens;
      else if (CLOSED_CLASS.has(piece.toLowerCase().replaceAll("’", "'"))) budget.closedClass += tokens;
      else budget.otherWords += tokens;
    }
  }
  return budget;
}

export function addBudgets(a: TokenBudget, b: TokenBudget): TokenBudget {
  return {
    total: a.total + b.total,
    protected: a.protected + b.protected,
    symbols: a.symbols + b.symbols,
    closedClass: a.closedClass + b.closedClass,
    otherWords: a.otherWords + b.otherWords,
  };
}

export const EMPTY_BUDGET: TokenBudget = { total: 0, protected: 0, symbols: 0, closedClass: 0, otherWords: 0 };
