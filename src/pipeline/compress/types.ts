import type { ChatMessage, Role } from "../../core/messages";
import type { TokenizerFamily } from "../../tokens/count";

export interface CompressOptions {
  /** 0.0 (whitespace only) .. 1.0 (maximum); the `svc_options.max_aggressiveness` value. */
  aggressiveness: number;
  /** Rule names to leave out (`svc_options.skip_rules`); each must be one of RULE_NAMES. */
  skipRules: readonly string[];
  /** BPE used for the before/after token counts; o200k (the gpt-4o family) unless the caller knows better. */
  tokenizer?: TokenizerFamily;
}

export interface CompressResult {
  messages: ChatMessage[];
  originalTokens: number;
  compressedTokens: number;
  /** Fraction of tokens removed, 0..1 (`svc_meta.compression_ratio`). */
  compressionRatio: number;
  /** Rules that changed the prompt, in pipeline order (`svc_meta.rules_applied`). */
  rulesApplied: string[];
  /** Tokens each applied rule removed, estimated by the rule on the text it changed. */
  savedByRule: Record<string, number>;
}

/** One message of the conversation as the rules see it: protected spans replaced by placeholders. */
export interface MaskedMessage {
  role: Role;
  masked: string;
  /** Original text of a masked fragment (placeholders put back). */
  unmask(fragment: string): string;
}

export interface RuleContext {
  /** Aggressiveness requested for the prompt (max_aggressiveness), the same for every message. */
  level: number;
  /** System prompts and the last user turn: handled with more care than older history. */
  careful: boolean;
  /** The whole conversation, masked, and where this message sits in it. */
  conversation: readonly MaskedMessage[];
  index: number;
  /** Rules that already changed this message, in order: evidence of how wordy it is. */
  changedBy: ReadonlySet<string>;
  /** Tokens of a masked fragment, counted on its original text. */
  tokens(fragment: string): number;
  unmask(fragment: string): string;
  /** Original text of each protected span of this message, by placeholder index: what unmask puts back. */
  originals: readonly string[];
}

export interface RuleOutput {
  text: string;
  /** Tokens removed, estimated on the fragments the rule changed. */
  saved: number;
}

/**
 * A compression rule works on masked text: protected spans (code, quotes, numbers, negations, ...)
 * are opaque placeholders it can neither see into nor remove.
 */
export interface CompressionRule {
  readonly name: string;
  /** Effective aggressiveness from which the rule runs. */
  readonly minLevel: number;
  apply(masked: string, ctx: RuleContext): RuleOutput;
  /**
   * A cheap necessary condition read on a message's original (unmasked) text: false only when `apply`
   * cannot change that message's masked text at `level`, given that no rule before it changed it. When
   * it is false for every rule and message, the pipeline sends the prompt as it came without masking it
   * (protect/mask.ts's detectors were the largest share of a fresh prompt's compression time).
   * Masking only replaces spans with placeholders (no letter, digit, blank or punctuation), so a match
   * of a pattern that holds no placeholder is found in the original too; the one kind of match this
   * misses is a word glued to a protected span with no blank between them ("5hello"), where a
   * placeholder makes a word boundary the original does not have: such a message is sent uncompressed,
   * which never changes what it asks.
   */
  mayChange(original: string, ctx: MayChangeContext): boolean;
}

/** What `mayChange` knows of a message. */
export interface MayChangeContext {
  level: number;
  /** As RuleContext.careful. */
  careful: boolean;
}
