/**
 * What compression leaves of the chatty corpora the rules are written against (never the hold-out):
 * tokens removed at the default level as sent (after the quality back-off), and each prompt whose
 * output still holds framing, before and after, so a rule writer sees what the rules miss.
 *
 *   bun bench/chatty-residue.ts [--level 0.5] [--all] [--chatty FILE ...]
 *
 * --chatty FILE reads that dev set (bench/compress-eval.ts's shape) instead of the corpora written against;
 * never a set one only scores.
 *
 * "Framing left" = tokens the output has beyond its task (the corpora keep the task apart); prompts with
 * more than FRAMING_LEFT of them, or backed off, are printed (--all: every prompt).
 */
import { parseArgs } from "node:util";
import { compressWithQualityFloor, promptText } from "../src/pipeline/compress";
import { loadModels } from "../src/pipeline/models";
import { countTokens } from "../src/tokens/count";
import { asConversation } from "./lib/compression-corpora";
import { chattyCorpora, chattyCorpusFile } from "./lib/chatty-corpora";

const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    level: { type: "string", default: "0.5" },
    all: { type: "boolean", default: false },
    chatty: { type: "string", multiple: true, default: [] },
  },
});
const models = await loadModels();
const scorer = async (a: string, b: string) => (await models.quality(a, b)).score;
const FRAMING_LEFT = 2;
const opts = { aggressiveness: Number(flags.level), skipRules: [] };

const corpora = flags.chatty.length > 0 ? flags.chatty.map(chattyCorpusFile) : chattyCorpora().filter((c) => c.writtenAgainst);
for (const corpus of corpora) {
  let before = 0;
  let after = 0;
  const left: string[] = [];
  for (const [i, p] of corpus.prompts.entries()) {
    const sent = await compressWithQualityFloor(asConversation(p), opts, scorer);
    before += sent.originalTokens ?? 0;
    after += sent.compressedTokens ?? 0;
    const out = promptText(sent.messages);
    const extra = countTokens(out) - countTokens(corpus.tasks[i]!);
    if (flags.all || sent.rulesUndone.length > 0 || extra > FRAMING_LEFT) {
      left.push(
        `- ${JSON.stringify(p.turns[0])}\n  -> ${JSON.stringify(out)} (+${extra} tokens, score ${sent.qualityScore}${sent.rulesUndone.length ? `, undone ${sent.rulesUndone.join(",")}` : ""})`,
      );
    }
  }
  console.log(
    `## ${corpus.name}: ${corpus.prompts.length} prompts, ${(((before - after) / before) * 100).toFixed(1)}% of tokens removed (sent, level ${opts.aggressiveness})\n`,
  );
  console.log(left.join("\n"), "\n");
}
