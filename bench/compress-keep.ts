/**
 * Spans that must survive compression: prompts whose social words are the content ("Translate 'Hope
 * you're well' into Spanish", a song called "Sorry", "cheers" asked about), each with the substrings
 * that must arrive byte for byte. Counts the prompts where what the gateway sends (compressWithQualityFloor
 * with the real scorer, as bench/compress-eval.ts's "sent") lost one, at each level, and prints them.
 *
 *   bun bench/compress-keep.ts FILE...   ({ prompts: [{ id, text, keep: string[] }] }; a probe is a hold-out only if never read while tuning)
 */
import { readFileSync } from "node:fs";
import { compressWithQualityFloor } from "../src/pipeline/compress";
import { loadModels } from "../src/pipeline/models";

interface KeepPrompt {
  id: string;
  text: string;
  keep: string[];
}

const files = process.argv.slice(2);
if (files.length === 0) throw new Error("usage: bun bench/compress-keep.ts FILE... ({ prompts: [{ id, text, keep }] })");
const models = await loadModels();
const scorer = async (original: string, compressed: string) => (await models.quality(original, compressed)).score;

for (const file of files) {
  const { prompts } = JSON.parse(readFileSync(file, "utf8")) as { prompts: KeepPrompt[] };
  if (!Array.isArray(prompts) || !prompts.every((p) => typeof p.text === "string" && Array.isArray(p.keep)))
    throw new Error(`${file}: expected { prompts: [{ id, text, keep: string[] }] }`);
  console.log(`\n## ${file}: ${prompts.length} prompts\n`);
  for (const level of [0.5, 1]) {
    const lost: string[] = [];
    let edited = 0;
    for (const p of prompts) {
      const sent = await compressWithQualityFloor([{ role: "user", content: p.text }], { aggressiveness: level, skipRules: [] }, scorer);
      const out = sent.messages.map((m) => m.content).join("\n");
      if (out !== p.text) edited++;
      const missing = p.keep.filter((k) => !out.includes(k));
      if (missing.length > 0) lost.push(`- ${p.id}: lost ${missing.map((k) => JSON.stringify(k)).join(", ")}\n  sent: ${JSON.stringify(out).slice(0, 400)}`);
    }
    console.log(`level ${level}: ${lost.length} of ${prompts.length} prompts lost a span that must stay (${edited} edited at all)`);
    for (const line of lost) console.log(line);
  }
}
