/**
 * Compression evaluation over real prompts: tokens removed per corpus and level, quality, survival
 * of protected spans, and speed. Prints markdown tables.
 *
 *   bun bench/compress-eval.ts            (gsm8k limited to its first 1,000 questions)
 *
 * Prompts come from ../shared/data; each is sent as the last user turn of a one-message
 * conversation, so it is compressed at CAREFUL_LEVEL_FACTOR of the requested level.
 *
 * Span survival is checked with extractors written here, independent of the guard code: every
 * distinct number, negation word, code block / inline code and URL found in the original must be
 * found in the compressed prompt. Distinct, because `dedup` keeps one copy of a sentence said twice;
 * the "negations, all kept" column also checks that no occurrence of a negation word is lost.
 */
import { compressMessages, promptText, type CompressResult } from "../src/pipeline/compress";
import type { ChatMessage } from "../src/pipeline/messages";
import { countMessageTokens } from "../src/tokens/count";
import { arenaHard, awesomeChatgptPrompts, gsm8k, mtBench, selfInstruct, type CorpusPrompt } from "../models/word-stats/corpora";

const LEVELS = [0.25, 0.5, 1.0] as const;
const GSM8K_LIMIT = 1000;
/** Per-1k-token speed is reported for prompts at least this long; shorter ones are fixed overhead. */
const SPEED_MIN_TOKENS = 200;
const TIMED_RUNS = 3;

interface Corpus {
  name: string;
  kind: "verbose" | "terse" | "mixed";
  prompts: CorpusPrompt[];
}

const corpora: Corpus[] = [
  { name: "awesome-chatgpt-prompts", kind: "verbose", prompts: awesomeChatgptPrompts() },
  { name: "self-instruct", kind: "mixed", prompts: selfInstruct() },
  { name: "arena-hard v2.0", kind: "mixed", prompts: arenaHard() },
  // Each mt-bench turn is a prompt of its own: the second turns are follow-ups, still terse.
  { name: "mt-bench", kind: "terse", prompts: mtBench().flatMap((p) => p.turns.map((t, i) => ({ id: `${p.id}-${i + 1}`, turns: [t] }))) },
  { name: `gsm8k (first ${GSM8K_LIMIT})`, kind: "terse", prompts: gsm8k(GSM8K_LIMIT) },
];

const asConversation = (p: CorpusPrompt): ChatMessage[] => p.turns.map((content) => ({ role: "user", content }));

// ---- independent span extractors -------------------------------------------------------------

const EXTRACTORS: Record<"numbers" | "negations" | "code" | "urls", (text: string) => string[]> = {
  // Digits and decimal points only: "1, 2" minified to "1,2" is still the numbers 1 and 2.
  numbers: (t) => t.match(/\d+(?:\.\d+)*/g) ?? [],
  negations: (t) => (t.match(/\b(?:not|no|never|none|nothing|nobody|nor|neither|without|cannot|\w+n['’]t)\b/gi) ?? []).map((w) => w.toLowerCase()),
  code: (t) => [...(t.match(/```[\s\S]*?(?:```|$)/g) ?? []), ...(t.replace(/```[\s\S]*?(?:```|$)/g, "").match(/`[^`\n]+`/g) ?? [])],
  // A URL ends at whitespace, a bracket, a quote, a backtick or a table pipe, and never with sentence punctuation.
  urls: (t) => (t.match(/https?:\/\/[^\s()[\]<>"'`|]+/g) ?? []).map((u) => u.replace(/[.,;:!?]+$/, "")),
};

function counts(items: string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

/** True when every distinct span of the original is in the compressed text (`everyCopy`: as often). */
function survived(extract: (t: string) => string[], original: string, compressed: string, everyCopy = false): boolean {
  const after = counts(extract(compressed));
  for (const [span, n] of counts(extract(original))) if ((after.get(span) ?? 0) < (everyCopy ? n : 1)) return false;
  return true;
}

// ---- quality -----------------------------------------------------------------------------------

/**
 * The quality model (src/pipeline/score) has not landed yet. Until it does, quality is a lexical
 * proxy: the share of the original's distinct content words (4+ letters, not among the 150 most
 * common English words) still present in the compressed prompt, times 100.
 */
const QUALITY_SOURCE = "proxy: content-word recall (src/pipeline/score not landed yet)";
const COMMON = new Set(
  "that with have this from they will would there their what about which when make like time just know take people into year your good some could them other than then look only come over think also back after work first well even want because these give most should must need here where does each more very such".split(" "),
);
function contentWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/\p{L}{4,}/gu) ?? []).filter((w) => !COMMON.has(w)));
}
function quality(original: string, compressed: string): number {
  const before = contentWords(original);
  if (before.size === 0) return 100;
  const after = contentWords(compressed);
  let kept = 0;
  for (const w of before) if (after.has(w)) kept++;
  return (100 * kept) / before.size;
}

// ---- run -------------------------------------------------------------------------------------

const quantile = (sorted: number[], q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b);

interface Row {
  corpus: string;
  kind: string;
  level: number;
  prompts: number;
  removed: number;
  medianRemoved: number;
  quality: number;
  survival: Record<keyof typeof EXTRACTORS | "negationCopies", number>;
}

function timeCall(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < TIMED_RUNS; i++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

const rows: Row[] = [];
const rulesByLevel = new Map<number, Map<string, number>>();
const speed = { compress: [] as number[], countOnly: [] as number[], latency: [] as number[] };

// Warm-up: JIT and the tokenizer's caches, so the timed runs measure steady state.
for (const c of corpora) for (const p of c.prompts.slice(0, 50)) compressMessages(asConversation(p), { aggressiveness: 1, skipRules: [] });

for (const corpus of corpora) {
  for (const level of LEVELS) {
    let before = 0;
    let after = 0;
    const perPrompt: number[] = [];
    const qualities: number[] = [];
    const intact = { numbers: 0, negations: 0, code: 0, urls: 0, negationCopies: 0 };
    const saved = rulesByLevel.get(level) ?? new Map<string, number>();
    rulesByLevel.set(level, saved);
    for (const prompt of corpus.prompts) {
      const messages = asConversation(prompt);
      const opts = { aggressiveness: level, skipRules: [] };
      let result: CompressResult | undefined;
      const ms = timeCall(() => (result = compressMessages(messages, opts)));
      const r = result!;
      if (level === 0.5) {
        speed.latency.push(ms);
        if (r.originalTokens >= SPEED_MIN_TOKENS) {
          speed.compress.push((ms / r.originalTokens) * 1000);
          speed.countOnly.push((timeCall(() => [countMessageTokens(messages), countMessageTokens(r.messages)]) / r.originalTokens) * 1000);
        }
      }
      before += r.originalTokens;
      after += r.compressedTokens;
      perPrompt.push(r.compressionRatio);
      const original = promptText(messages);
      const compressed = promptText(r.messages);
      qualities.push(quality(original, compressed));
      for (const k of Object.keys(EXTRACTORS) as (keyof typeof EXTRACTORS)[]) if (survived(EXTRACTORS[k], original, compressed)) intact[k]++;
      if (survived(EXTRACTORS.negations, original, compressed, true)) intact.negationCopies++;
      for (const [rule, n] of Object.entries(r.savedByRule)) saved.set(rule, (saved.get(rule) ?? 0) + n);
    }
    const n = corpus.prompts.length;
    rows.push({
      corpus: corpus.name,
      kind: corpus.kind,
      level,
      prompts: n,
      removed: (before - after) / before,
      medianRemoved: quantile(sortNum(perPrompt), 0.5),
      quality: qualities.reduce((a, b) => a + b, 0) / n,
      survival: { numbers: intact.numbers / n, negations: intact.negations / n, code: intact.code / n, urls: intact.urls / n, negationCopies: intact.negationCopies / n },
    });
  }
}

console.log(`## Compression by corpus and level\n\nQuality: ${QUALITY_SOURCE}.\nRemoved = tokens removed over the whole corpus (o200k); median = median per prompt.\n`);
console.log("| corpus | kind | level | prompts | removed | median | quality | numbers intact | negations intact | negations, all kept | code intact | URLs intact |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const s = r.survival;
  console.log(`| ${r.corpus} | ${r.kind} | ${r.level.toFixed(2)} | ${r.prompts} | ${pct(r.removed)} | ${pct(r.medianRemoved)} | ${r.quality.toFixed(1)} | ${pct(s.numbers)} | ${pct(s.negations)} | ${pct(s.negationCopies)} | ${pct(s.code)} | ${pct(s.urls)} |`);
}

console.log("\n## Tokens saved by rule (all corpora, estimated by each rule)\n");
const ruleNames = [...new Set([...rulesByLevel.values()].flatMap((m) => [...m.keys()]))];
console.log(`| rule | ${LEVELS.map((l) => `level ${l}`).join(" | ")} |`);
console.log(`|---|${LEVELS.map(() => "---").join("|")}|`);
for (const rule of ruleNames) console.log(`| ${rule} | ${LEVELS.map((l) => String(Math.round(rulesByLevel.get(l)?.get(rule) ?? 0))).join(" | ")} |`);

const c = sortNum(speed.compress);
const b = sortNum(speed.countOnly);
const lat = sortNum(speed.latency);
console.log(`\n## Speed at level 0.5 (best of ${TIMED_RUNS} runs per prompt)\n`);
console.log(`Per 1k tokens over the ${c.length} prompts of at least ${SPEED_MIN_TOKENS} tokens; baseline = the two token counts alone (before and after), measured in the same run.\n`);
console.log("| measure | p50 | p99 | max |");
console.log("|---|---|---|---|");
console.log(`| whole stage, ms per 1k tokens | ${quantile(c, 0.5).toFixed(3)} | ${quantile(c, 0.99).toFixed(3)} | ${c[c.length - 1]!.toFixed(3)} |`);
console.log(`| baseline (token counts only), ms per 1k tokens | ${quantile(b, 0.5).toFixed(3)} | ${quantile(b, 0.99).toFixed(3)} | ${b[b.length - 1]!.toFixed(3)} |`);
console.log(`| ratio stage / baseline (p50) | ${(quantile(c, 0.5) / quantile(b, 0.5)).toFixed(2)}x | | |`);
console.log(`| whole stage, ms per call, all ${lat.length} prompts | ${quantile(lat, 0.5).toFixed(3)} | ${quantile(lat, 0.99).toFixed(3)} | ${lat[lat.length - 1]!.toFixed(3)} |`);
