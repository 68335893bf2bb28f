/**
 * A quick read of compression on files written elsewhere, for a rule writer (issue 25): tokens removed as
 * sent (after the quality back-off, as the gateway sends) and as requested, per level, on chatty corpora
 * ({ prompts: [{ id, task, text }] }, a task with a colon hands over the text after it, which must arrive
 * byte for byte), and on adversarial files ({ prompts: [{ id, text, keep: [...] }] }) the prompts where a
 * `keep` string, social-looking words that are the content, did not arrive byte for byte at some level.
 *
 *   bun bench/compress-dev.ts --chatty bench/data/chatty-dev-8.json --adversarial bench/data/compress-adversarial.json [--samples 10] [--show]
 *
 * bench/compress-eval.ts gives the full figures; this one is the loop a rule change is checked in.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { compressMessages, compressWithQualityFloor, promptText } from "../src/pipeline/compress";
import { loadModels } from "../src/pipeline/models";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    chatty: { type: "string", multiple: true, default: [] },
    adversarial: { type: "string", multiple: true, default: [] },
    samples: { type: "string", default: "0" },
    show: { type: "boolean", default: false },
  },
});
const models = await loadModels();
const scorer = async (a: string, b: string) => (await models.quality(a, b)).score;
const LEVELS = [0.25, 0.5, 1.0];
const asMessages = (text: string) => [{ role: "user" as const, content: text }];
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

for (const path of flags.chatty) {
  const prompts = (JSON.parse(readFileSync(path, "utf8")) as { prompts: { id: string; task: string; text: string }[] }).prompts;
  for (const level of [0.5, 1.0]) {
    let before = 0;
    let sent = 0;
    let requested = 0;
    let withData = 0;
    let intact = 0;
    const shown: string[] = [];
    for (const p of prompts) {
      const opts = { aggressiveness: level, skipRules: [] };
      const out = await compressWithQualityFloor(asMessages(p.text), opts, scorer);
      const req = compressMessages(asMessages(p.text), opts);
      before += out.originalTokens;
      sent += out.compressedTokens;
      requested += req.compressedTokens;
      const after = promptText(out.messages);
      if (p.task.includes(":")) {
        withData++;
        if (
          after.includes(
            p.task
              .slice(p.task.indexOf(":") + 1)
              .trim()
              .replace(/^"|"$/g, ""),
          )
        )
          intact++;
      }
      if (flags.show && level === 0.5)
        shown.push(
          `- ${JSON.stringify(p.text)}\n  -> ${JSON.stringify(after)} (${out.qualityScore}${out.rulesUndone.length ? ` undone ${out.rulesUndone}` : ""})`,
        );
    }
    console.log(`${path} level ${level}: removed sent ${pct(1 - sent / before)}, requested ${pct(1 - requested / before)}; data intact ${intact}/${withData}`);
    if (shown.length) console.log(shown.join("\n"));
  }
}

for (const path of flags.adversarial) {
  const prompts = (JSON.parse(readFileSync(path, "utf8")) as { prompts: { id: string; text: string; keep: string[] }[] }).prompts;
  let changed = 0;
  for (const p of prompts) {
    const lost = new Set<string>();
    for (const level of LEVELS) {
      const opts = { aggressiveness: level, skipRules: [] };
      const outs = [
        promptText(compressMessages(asMessages(p.text), opts).messages),
        promptText((await compressWithQualityFloor(asMessages(p.text), opts, scorer)).messages),
      ];
      for (const out of outs) for (const k of p.keep) if (!out.includes(k)) lost.add(`${level}: ${JSON.stringify(out)}`);
    }
    if (lost.size > 0) {
      changed++;
      console.log(`- ${p.id} ${JSON.stringify(p.text)}\n  ${[...lost].join("\n  ")}`);
    }
  }
  console.log(`${path}: ${changed} of ${prompts.length} prompts lost a keep string at some level`);
}
