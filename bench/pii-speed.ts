/**
 * Speed of PII detection and masking (maskMessages: every detector, the tagger, placeholders), in µs
 * per 1k o200k tokens, p50 and p99 over two workloads:
 *   prompts   the corpora's user prompts of 200+ tokens (ordinary text, little PII)
 *   pii-dense presidio-synth-pii texts joined into ~1k-token messages (PII in every sentence)
 * Each message is timed best of 3 (bench/lib/compression-corpora.ts). A floor in the same run: one
 * regex pass over the same text that does nothing (/\p{L}+/gu counted), to read the figures against.
 *
 *   bun bench/pii-speed.ts
 */
import type { ChatMessage } from "../src/core/messages";
import { maskMessages } from "../src/pipeline/pii/mask";
import { PlaceholderMap } from "../src/pipeline/pii/placeholders";
import { countTokens } from "../src/tokens/count";
import { readPresidio } from "../models/pii-ner/data";
import { bestOf, compressionCorpora, SPEED_MIN_TOKENS } from "./lib/compression-corpora";
import { percentile } from "./lib/stats";

function denseMessages(): string[] {
  const out: string[] = [];
  let cur = "";
  for (const s of readPresidio()) {
    cur += (cur ? "\n\n" : "") + s.full_text;
    if (countTokens(cur) >= 1000) {
      out.push(cur);
      cur = "";
    }
  }
  return out;
}

const workloads: [string, string[]][] = [
  [
    "prompts",
    compressionCorpora()
      .flatMap((c) => c.prompts.map((p) => p.turns.join("\n\n")))
      .filter((t) => countTokens(t) >= SPEED_MIN_TOKENS),
  ],
  ["pii-dense", denseMessages()],
];

const WORD = /\p{L}+/gu;
const floor = (text: string) => {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null) n++;
  return n;
};

// Warm-up: JIT, the tagger's tables and libphonenumber's metadata load on first use.
for (const [, texts] of workloads) for (const t of texts.slice(0, 200)) maskMessages([{ role: "user", content: t }], new PlaceholderMap());

console.log("workload   messages  tokens(median) | mask µs/1k tok p50   p99 | floor µs/1k p50 | messages masked");
for (const [name, texts] of workloads) {
  const ours: number[] = [];
  const base: number[] = [];
  let masked = 0;
  for (const text of texts) {
    const k = countTokens(text) / 1000;
    const messages: ChatMessage[] = [{ role: "user", content: text }];
    let hit = false;
    ours.push((bestOf(() => (hit = maskMessages(messages, new PlaceholderMap()).masked)) * 1000) / k);
    base.push((bestOf(() => floor(text)) * 1000) / k);
    if (hit) masked++;
  }
  const tokens = texts.map((t) => countTokens(t)).sort((a, b) => a - b)[texts.length >> 1];
  console.log(
    `${name.padEnd(10)} ${String(texts.length).padStart(8)}  ${String(tokens).padStart(14)} | ${percentile(ours, 50).toFixed(1).padStart(18)} ${percentile(ours, 99).toFixed(1).padStart(5)} | ${percentile(base, 50).toFixed(1).padStart(15)} | ${masked}`,
  );
}
