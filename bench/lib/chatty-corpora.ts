import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { CorpusPrompt } from "../../models/word-stats/corpora";
import chattyFile from "../data/chatty-prompts.json";
import framingsFile from "../data/chatty-framings.json";
import devFile from "../data/chatty-dev-6.json";
import blindFile from "../data/chatty-blind-7.json";
import dev9File from "../data/chatty-dev-9.json";

/**
 * The chatty corpora of issue 25 (real tasks wrapped in social framing), shared by compress-eval.ts and
 * chatty-residue.ts:
 * - bench/data/chatty-prompts.json, its tune split ("written against") and its hold-out, whose framings
 *   were never used while writing or tuning the rules;
 * - bench/data/chatty-framings.json, framings written later by the compress helper, wrapped around the
 *   tune split's tasks and tasks of its own: rules were written against it too;
 * - bench/data/chatty-dev-6.json, whole prompts in styles none of those use (workplace chat, texting,
 *   non-native and elderly formal, forum, anxious, shouty), written with the rules for a new author's
 *   corpus (chatty-5) and written against;
 * - bench/data/chatty-blind-7.json, prompts in yet other styles written after those rules, measured once
 *   and never written against;
 * - bench/data/chatty-dev-9.json, long and varied prompts (rambling backstory, polite emails with a pasted
 *   text, Slack, passive-aggressive ...), its dev split written against, its hold-out split written at the
 *   same time and scored once, at the end of the batch that wrote rules against the dev split.
 */
interface ChattyPrompt {
  id: string;
  split: "tune" | "dev" | "holdout";
  task: string;
  text: string;
}
interface Framings {
  openers: string[];
  requests: { text: string; end: string }[];
  closings: string[];
  tasks: string[];
}

export interface ChattyCorpus {
  name: string;
  kind: "chatty";
  /** Whether the rules were written against it: chatty-residue.ts reads only those. */
  writtenAgainst: boolean;
  prompts: CorpusPrompt[];
  /** Each prompt's task without its framing, in the order of `prompts`. */
  tasks: string[];
}

const chatty = (chattyFile as { prompts: ChattyPrompt[] }).prompts;
const framings = framingsFile as Framings;
const dev9 = (dev9File as { prompts: ChattyPrompt[] }).prompts;

/** FNV-1a of a string: a fixed pick of framings per task that any change to the lists reshuffles only where it must. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
const pick = <T>(list: readonly T[], key: string): T => list[hash(key) % list.length]!;

/** A task wrapped in an opener, an indirect request and a closing; a task that hands over a text ends its line before the closing. */
function framed(task: string, variant: number): string {
  const key = `${variant}:${task}`;
  const request = pick(framings.requests, `request ${key}`);
  const handsOver = task.includes(":");
  const body = `${request.text}${task}${handsOver ? "" : request.end}`;
  return `${pick(framings.openers, `opener ${key}`)} ${body}${handsOver ? "\n\n" : " "}${pick(framings.closings, `closing ${key}`)}`;
}

/** Tasks with a colon hand over the text after it: the prompt and the text that must arrive byte for byte. */
export const handedOver = new Map<string, string>();

function corpusOf(name: string, writtenAgainst: boolean, prompts: { id: string; task: string; text: string }[]): ChattyCorpus {
  for (const p of prompts) if (p.task.includes(":")) handedOver.set(p.text, p.task.slice(p.task.indexOf(":") + 1).trim());
  return { name, kind: "chatty", writtenAgainst, prompts: prompts.map((p) => ({ id: p.id, turns: [p.text] })), tasks: prompts.map((p) => p.task) };
}

export function chattyCorpora(): ChattyCorpus[] {
  const tune = chatty.filter((p) => p.split === "tune");
  const tasks = [...new Set([...tune.map((p) => p.task), ...framings.tasks])];
  const ownFramings = tasks.flatMap((task, i) => [0, 1].map((variant) => ({ id: `framed-${i}-${variant}`, task, text: framed(task, variant) })));
  return [
    corpusOf("chatty (written against)", true, tune),
    corpusOf("chatty, new framings (written against)", true, ownFramings),
    corpusOf(
      "chatty (hold-out)",
      false,
      chatty.filter((p) => p.split === "holdout"),
    ),
    corpusOf("chatty, dev-6 styles (written against)", true, (devFile as { prompts: ChattyPrompt[] }).prompts),
    corpusOf("chatty, blind-7 styles (never written against)", false, (blindFile as { prompts: ChattyPrompt[] }).prompts),
    corpusOf(
      "chatty, dev-9 (written against)",
      true,
      dev9.filter((p) => p.split !== "holdout"),
    ),
    corpusOf(
      "chatty, dev-9 hold-out (scored once)",
      false,
      dev9.filter((p) => p.split === "holdout"),
    ),
  ];
}

/**
 * A chatty corpus of the same shape written elsewhere (bench/compress-eval.ts --chatty FILE): a hold-out
 * only if nobody writing or tuning the rules has read it.
 */
export function chattyCorpusFile(path: string): ChattyCorpus {
  const file = JSON.parse(readFileSync(path, "utf8")) as { prompts?: { id: string; task: string; text: string }[] };
  if (!Array.isArray(file.prompts) || !file.prompts.every((p) => typeof p.id === "string" && typeof p.task === "string" && typeof p.text === "string")) {
    throw new Error(`${path}: expected { prompts: [{ id, task, text }] }`);
  }
  return corpusOf(`chatty (${basename(path)})`, false, file.prompts);
}
