import type { ChatMessage } from "../../core/messages";
import { countMessageTokens, countTokens } from "../../tokens/count";
import { isCareful, isCompressible } from "./level";
import { mask, placeholdersPresent, unmask, type MaskedText } from "./protect/mask";
import { RULES } from "./rules";
import { whitespace } from "./rules/whitespace";
import { forgetPhraseScan } from "./text/phrase-patterns";
import { tidyChangedLines } from "./text/tidy";
import type { CompressOptions, CompressResult, CompressionRule, MaskedMessage, RuleContext } from "./types";

/** Every rule name, in pipeline order: the values `svc_options.skip_rules` accepts. */
export const RULE_NAMES: readonly string[] = RULES.map((r) => r.name);

export class CompressOptionsError extends Error {
  constructor(
    message: string,
    /** The option at fault, as the request names it. */
    readonly field: "max_aggressiveness" | "skip_rules",
  ) {
    super(message);
    this.name = "CompressOptionsError";
  }
}

/** Names in `skipRules` that are not rules; empty when all are valid. */
export function unknownRuleNames(skipRules: readonly unknown[]): string[] {
  return skipRules.filter((name) => typeof name !== "string" || !RULE_NAMES.includes(name)).map(String);
}

export function validateCompressOptions(opts: CompressOptions): void {
  if (typeof opts.aggressiveness !== "number" || !Number.isFinite(opts.aggressiveness) || opts.aggressiveness < 0 || opts.aggressiveness > 1) {
    throw new CompressOptionsError(`max_aggressiveness must be a number from 0.0 to 1.0, got ${String(opts.aggressiveness)}`, "max_aggressiveness");
  }
  if (!Array.isArray(opts.skipRules)) throw new CompressOptionsError("skip_rules must be an array of rule names", "skip_rules");
  const unknown = unknownRuleNames(opts.skipRules);
  if (unknown.length > 0) {
    throw new CompressOptionsError(`skip_rules has unknown rule names: ${unknown.join(", ")}; valid names are: ${RULE_NAMES.join(", ")}`, "skip_rules");
  }
}

/** What compressing one message produced, kept apart so a message can be put back on its own. */
interface MessageOutcome {
  content: string;
  rules: Set<string>;
  saved: Map<string, number>;
  /** Original text of protected spans that left this message (only ever because a copy stays elsewhere). */
  departedSpans: string[];
}

function unchanged(content: string): MessageOutcome {
  return { content, rules: new Set(), saved: new Map(), departedSpans: [] };
}

function compressOne(masking: MaskedText, original: string, ctx: Omit<RuleContext, "changedBy">, enabled: readonly CompressionRule[]): MessageOutcome {
  const outcome = unchanged(original);
  // changedBy is the outcome's own set: each rule sees the ones before it as they are recorded.
  const ruleCtx: RuleContext = { ...ctx, changedBy: outcome.rules };
  let text = masking.masked;
  // The text as the user wrote it, with only the whitespace rule's normalising (line ends, trailing blanks): the
  // lines tidyChangedLines leaves alone. Read before the whitespace rule, a pasted Dockerfile with \r\n line
  // ends had every line changed and lost the space in "COPY . /app" (a second reading of the session's change).
  let asWritten = text;
  const record = (rule: CompressionRule, saved: number) => {
    outcome.rules.add(rule.name);
    outcome.saved.set(rule.name, (outcome.saved.get(rule.name) ?? 0) + saved);
  };
  for (const rule of enabled) {
    if (ctx.level < rule.minLevel) continue;
    const out = rule.apply(text, ruleCtx);
    if (out.text === text) continue;
    // A rule may shorten a message, never empty it: the turn was there for a reason.
    if (out.text.trim() === "" && text.trim() !== "") continue;
    text = out.text;
    record(rule, out.saved);
    if (rule === whitespace) asWritten = text;
  }
  const removedWords = outcome.rules.size > (outcome.rules.has(whitespace.name) ? 1 : 0);
  if (removedWords) {
    text = tidyChangedLines(text, asWritten);
    if (enabled.includes(whitespace)) {
      const out = whitespace.apply(text, ruleCtx);
      if (out.text !== text) {
        text = out.text;
        record(whitespace, out.saved);
      }
    }
  }
  const present = placeholdersPresent(text, masking.originals.length);
  // A damaged placeholder means a rule misbehaved: send the message as it came.
  if (present === null) return unchanged(original);
  outcome.content = unmask(text, masking.originals);
  outcome.departedSpans = masking.originals.filter((_, i) => !present.has(i));
  return outcome;
}

/**
 * The compression stage: pure, synchronous and deterministic. Only the `content` of user, system,
 * developer and assistant messages changes; tool messages and tool_calls pass through as they are.
 */
export function compressMessages(messages: readonly ChatMessage[], opts: CompressOptions): CompressResult {
  try {
    return compressAll(messages, opts);
  } finally {
    forgetPhraseScan();
  }
}

/**
 * The rules in the order their mayChange is asked, cheapest first (µs p50 on a fresh ~300-token workload
 * prompt, `bun bench/compress-may-change.ts`, 1,350 prompts, load 2.5): a prompt the rules change is
 * mostly changed by whitespace (1.0 µs, true for 9.5% of prompts) or prune (1.1, 28%), and the phrase
 * scan that filler, preamble and intent share (9-12), dedup's sentence hashes (6.8) and pleasantries'
 * social sentences (6.4) are then never read. Rules missing from the list are asked first.
 */
const MAY_CHANGE_ORDER = [
  "whitespace",
  "prune",
  "json",
  "emphasis",
  "repeat",
  "filler",
  "preamble",
  "intent",
  "dedup",
  "pleasantries",
  "smalltalk",
  "disclaimers",
];
const BY_MAY_CHANGE_COST = [...RULES].sort((a, b) => MAY_CHANGE_ORDER.indexOf(a.name) - MAY_CHANGE_ORDER.indexOf(b.name));

/**
 * Whether some rule may change some compressible message (CompressionRule.mayChange, read on the
 * unmasked text). When none may, masking and running the rules would only give the prompt back: most
 * fresh workload prompts (bench/lib/workload) come through every rule unchanged, and masking alone was a
 * third of their compression time.
 */
function anyRuleMayChange(messages: readonly ChatMessage[], enabled: readonly CompressionRule[], level: number, lastUserIndex: number): boolean {
  const running = BY_MAY_CHANGE_COST.filter((r) => level >= r.minLevel && enabled.includes(r));
  return messages.some((m, i) => {
    if (!isCompressible(m.role)) return false;
    const ctx = { level, careful: isCareful(m.role, i, lastUserIndex) };
    return running.some((r) => r.mayChange(m.content, ctx));
  });
}

/** The prompt as it came: what a compression that removes nothing returns. */
function unchangedResult(messages: readonly ChatMessage[], originalTokens: number): CompressResult {
  return {
    messages: messages.map((m) => ({ ...m })),
    originalTokens,
    compressedTokens: originalTokens,
    compressionRatio: 0,
    rulesApplied: [],
    savedByRule: {},
  };
}

function compressAll(messages: readonly ChatMessage[], opts: CompressOptions): CompressResult {
  validateCompressOptions(opts);
  const family = opts.tokenizer ?? "o200k";
  const originalTokens = countMessageTokens(messages, family);
  const enabled = RULES.filter((r) => !opts.skipRules.includes(r.name));
  const lastUserIndex = messages.findLastIndex((m) => m.role === "user");
  if (!anyRuleMayChange(messages, enabled, opts.aggressiveness, lastUserIndex)) return unchangedResult(messages, originalTokens);

  const maskings = messages.map((m) => (isCompressible(m.role) ? mask(m.content) : null));
  const conversation: MaskedMessage[] = messages.map((m, i) => {
    const masking = maskings[i];
    return masking
      ? { role: m.role, masked: masking.masked, unmask: (f: string) => unmask(f, masking.originals) }
      : { role: m.role, masked: m.content, unmask: (f: string) => f };
  });

  const outcomes = messages.map((m, i): MessageOutcome => {
    const masking = maskings[i];
    if (!masking) return unchanged(m.content);
    const careful = isCareful(m.role, i, lastUserIndex);
    const view = conversation[i]!;
    const ctx: Omit<RuleContext, "changedBy"> = {
      level: opts.aggressiveness,
      careful,
      conversation,
      index: i,
      unmask: view.unmask,
      originals: masking.originals,
      tokens: (fragment) => countTokens(view.unmask(fragment), family),
    };
    return compressOne(masking, m.content, ctx, enabled);
  });

  // Protected text may leave a message only when a copy of it is still sent in another.
  for (let i = 0; i < outcomes.length; i++) {
    const departed = outcomes[i]!.departedSpans;
    if (departed.length === 0) continue;
    const stillSent = (span: string) => outcomes.some((o) => o.content.includes(span));
    if (!departed.every(stillSent)) outcomes[i] = unchanged(messages[i]!.content);
  }

  const compressed = messages.map((m, i) => ({ ...m, content: outcomes[i]!.content }));
  // A prompt the rules left as it was (most terse ones) need not be counted twice.
  const changed = outcomes.some((o, i) => o.content !== messages[i]!.content);
  const compressedTokens = changed ? countMessageTokens(compressed, family) : originalTokens;
  if (compressedTokens >= originalTokens) return unchangedResult(messages, originalTokens);
  const rulesApplied = RULE_NAMES.filter((name) => outcomes.some((o) => o.rules.has(name)));
  const savedByRule: Record<string, number> = {};
  for (const name of rulesApplied) savedByRule[name] = outcomes.reduce((sum, o) => sum + (o.saved.get(name) ?? 0), 0);
  return {
    messages: compressed,
    originalTokens,
    compressedTokens,
    compressionRatio: (originalTokens - compressedTokens) / originalTokens,
    rulesApplied,
    savedByRule,
  };
}
