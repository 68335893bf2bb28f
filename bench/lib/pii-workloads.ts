import { readPresidio } from "../../models/pii-ner/data";
import { countTokens } from "../../src/tokens/count";
import { compressionCorpora, SPEED_MIN_TOKENS } from "./compression-corpora";

/**
 * The texts bench/pii-speed.ts times, shared with bench/pii-same.ts so that the spans it compares
 * are those of the very texts timed:
 *   prompts   the corpora's user prompts of 200+ tokens (ordinary text, little PII)
 *   pii-dense presidio-synth-pii texts joined into ~1k-token messages (PII in every sentence)
 */
export function piiWorkloads(): [string, string[]][] {
  return [
    [
      "prompts",
      compressionCorpora()
        .flatMap((c) => c.prompts.map((p) => p.turns.join("\n\n")))
        .filter((t) => countTokens(t) >= SPEED_MIN_TOKENS),
    ],
    ["pii-dense", denseMessages()],
  ];
}

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
