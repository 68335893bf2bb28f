/**
 * Conversations, protocols and provider prompt caching over 40-turn chats: `bun bench/conversation.ts`
 * (BENCH_CONVERSATIONS=6 by default). Prints markdown.
 *
 * Data: human chats from ../shared/data/topical-chat, valid_rare.json by default (BENCH_SPLIT=freq for
 * the other file; the summary was tuned on valid_freq alone). None has 40 turns, so each
 * benchmark conversation chains the messages of consecutive chats until it has 40 user turns). The
 * 1,000-token system prompt is ours (SYSTEM below), written for this benchmark.
 *
 * Part 1, end to end: a real gateway in front of the OpenAI- and Anthropic-protocol mocks, which cache
 * prefixes and report cached tokens as those providers do. Per turn: prompt tokens sent, cost, cached
 * tokens and the share of the previous request that this request starts with, byte for byte. Three
 * clients: one that resends its whole history (no conversation stage), one that sends only the new turn
 * with conversation_id (max_turns_to_keep 10), and the same with the system prompt as a protocol.
 *
 * Part 2, in-process: the optimizer's work on turn 40, p50/p99 over repeated runs with its memo off:
 * the whole 40-turn history (what a resending client costs) against the conversation stage's plan plus
 * the optimizer on the new turn only.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings } from "../src/config/config";
import { parseCompletionRequest } from "../src/http/validate/completion-request";
import { optimizeInputOf } from "../src/pipeline/analyze";
import { RULE_NAMES } from "../src/pipeline/compress";
import { optimize } from "../src/pipeline/optimize";
import { loadOptimizerDeps } from "../src/pipeline/optimizer-deps";
import { Conversations } from "../src/pipeline/context/conversations";
import { frameOf } from "../src/pipeline/context/frame";
import { MessageMemo } from "../src/pipeline/context/message-memo";
import { openStore } from "../src/store/db";
import type { ChatMessage } from "../src/core/messages";
import { countTokens } from "../src/tokens/count";
import { startOpenAIMock } from "../test/mocks/openai-mock";
import { startAnthropicMock } from "../test/mocks/anthropic-mock";
import type { MockProvider } from "../test/mocks/mock-server";
import { call, startGateway } from "../test/support/gateway-process";
import { percentile } from "./lib/stats";

const TURNS = 40;
const KEEP = 10;
const N = Number(process.env.BENCH_CONVERSATIONS ?? 6);
const TIMING_RUNS = Number(process.env.BENCH_ITERATIONS ?? 300);
const SPLIT = process.env.BENCH_SPLIT ?? "rare";

// ~1,000 o200k tokens of instructions, written for this benchmark (not from any data set).
const RULES = [
  "Keep the conversation going with a question of your own when the other person runs out of things to say.",
  "Share one concrete fact at a time, with its number or date when you know it, and say where it comes from.",
  "Never invent statistics; when unsure, say that you are unsure and offer what you do know instead.",
  "Match the length of the other person's message: a short reply to a short message, a fuller one to a long message.",
  "Avoid lists and headings; this is a chat between two people, not a report.",
  "When the topic is sport, name the team, the league and the season you mean.",
  "When the topic is music or film, name the artist or director and the year of release.",
  "Do not give medical, legal or financial advice; suggest a professional instead.",
  "Remember names, numbers and decisions from earlier in the chat and use them correctly later.",
  "If the other person asks a question, answer it before adding anything of your own.",
];
const SYSTEM = [
  "You are Sam, a friendly and curious conversation partner in a casual chat about news, sport, music, films, science and everyday life.",
  ...Array.from({ length: 4 }, (_, round) => RULES.map((r, i) => `Guideline ${round * RULES.length + i + 1}: ${r}`).join("\n")),
].join("\n");

const SYS: ChatMessage = { role: "system", content: SYSTEM };

interface Chat {
  content: { message: string }[];
}
function conversations(): string[][] {
  const chats = Object.values(
    JSON.parse(readFileSync(join(import.meta.dir, `../../shared/data/topical-chat/valid_${SPLIT}.json`), "utf8")) as Record<string, Chat>,
  );
  const out: string[][] = [];
  let cur: string[] = [];
  for (const c of chats) {
    for (const m of c.content) {
      const text = m.message.trim();
      if (text === "") continue;
      cur.push(text);
      if (cur.length === TURNS) {
        out.push(cur);
        cur = [];
        if (out.length === N) return out;
      }
    }
  }
  return out;
}

interface TurnRecord {
  prompt: number;
  cached: number;
  cost: number;
  saved: number;
  prefixShare: number;
  /** The summary changed on this request (a step): its prefix may differ from the previous one's there. */
  step: boolean;
  overheadMs: number;
}

/** The request's prompt as a list of pieces in order, without cache breakpoints (they mark, they are not content). */
function promptPieces(body: any): string[] {
  const strip = (v: unknown) => JSON.stringify(v, (k, x) => (k === "cache_control" ? undefined : x));
  if (Array.isArray(body.messages) && body.system === undefined && !body.messages.some((m: any) => Array.isArray(m.content))) return body.messages.map(strip);
  const system = typeof body.system === "string" ? [body.system] : (body.system ?? []).map(strip);
  return [...system, ...(body.messages ?? []).map(strip)];
}

/** The share of `prev` (in characters) that `cur` starts with, byte for byte. */
function prefixShare(prev: string[] | undefined, cur: string[]): number {
  if (!prev) return NaN;
  const a = prev.join("\u0000");
  const b = cur.join("\u0000");
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i / a.length;
}

const summaryOf = (pieces: string[]) => pieces.find((p) => p.includes("Summary of the earlier part of this conversation"));

type Mode = "resend, message memo off" | "resend" | "conversation" | "protocol+conversation";

async function runOne(
  url: string,
  key: string,
  mock: MockProvider,
  model: string,
  mode: Mode,
  chat: string[],
  tag: string,
  protocolId: string,
): Promise<TurnRecord[]> {
  const history: ChatMessage[] = [];
  const out: TurnRecord[] = [];
  let prev: string[] | undefined;
  for (let t = 0; t < chat.length; t++) {
    const user: ChatMessage = { role: "user", content: chat[t]! };
    const base = { cache: false, route: false };
    const body =
      mode === "resend" || mode === "resend, message memo off"
        ? { model, messages: [{ role: "system", content: SYSTEM }, ...history, user], svc_options: base }
        : mode === "conversation"
          ? { model, messages: [{ role: "system", content: SYSTEM }, user], svc_options: { ...base, conversation_id: tag, max_turns_to_keep: KEEP } }
          : { model, messages: [user], svc_options: { ...base, protocol_id: protocolId, conversation_id: tag, max_turns_to_keep: KEEP } };
    const r = await call(`${url}/v1/complete`, key, { body });
    const j = (await r.json()) as any;
    if (r.status !== 200) throw new Error(`${mode} turn ${t + 1}: ${r.status} ${JSON.stringify(j)}`);
    const pieces = promptPieces(mock.requests.at(-1)!.body);
    out.push({
      prompt: j.usage.prompt_tokens,
      cached: j.usage.prompt_tokens_details?.cached_tokens ?? 0,
      cost: j.svc_meta.cost_actual_usd,
      saved: j.svc_meta.saved_usd,
      prefixShare: prefixShare(prev, pieces),
      step: summaryOf(pieces) !== summaryOf(prev ?? []),
      overheadMs: j.svc_meta.latency_overhead_ms,
    });
    prev = pieces;
    history.push(user, { role: "assistant", content: j.choices[0].message.content });
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (x: number, d = 0) => x.toFixed(d);

async function part1(chats: string[][]): Promise<string[]> {
  const openai = startOpenAIMock({ apiKey: "k", record: true });
  const anthropic = startAnthropicMock({ apiKey: "k", record: true });
  const env = { OPENAI_API_KEY: "k", OPENAI_BASE_URL: `${openai.url}/v1`, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url };
  const gw = await startGateway(env);
  // The same client without the per-message memo (issue 28's baseline: every call optimizes the whole history).
  const noMemo = await startGateway({ ...env, SVC_MESSAGE_MEMO_CHARS: "0" }, { dataDir: gw.dataDir });
  const lines: string[] = [];
  try {
    const admin = await gw.cliKey(["--admin"]);
    for (let i = 0; i < 100; i++)
      if ((await call(`${gw.url}/v1/models`, admin.key)).status === 200) break;
      else await Bun.sleep(50);
    const proto = (await (await call(`${gw.url}/api/protocols`, admin.key, { body: { name: "sam", content: SYSTEM } })).json()) as any;
    lines.push(
      `System prompt: ${countTokens(SYSTEM)} o200k tokens; as a protocol compressed once to ${proto.compressed_tokens}. ${chats.length} conversations of ${TURNS} turns, max_turns_to_keep ${KEEP}, summary step 8 (the default).`,
      "",
    );
    for (const [name, model, mock] of [
      ["OpenAI mock", "gpt-4o-mini-2024-07-18", openai],
      ["Anthropic mock", "claude-3-5-sonnet-20241022", anthropic],
    ] as const) {
      const byMode = new Map<Mode, TurnRecord[][]>();
      for (const mode of ["resend, message memo off", "resend", "conversation", "protocol+conversation"] as Mode[]) {
        const runs: TurnRecord[][] = [];
        const url = mode === "resend, message memo off" ? noMemo.url : gw.url;
        for (let c = 0; c < chats.length; c++) runs.push(await runOne(url, admin.key, mock, model, mode, chats[c]!, `${name}-${mode}-${c}`, proto.id));
        byMode.set(mode, runs);
      }
      lines.push(
        `### ${name} (${model})`,
        "",
        "| client | prompt tokens at turn 1 / 10 / 20 / 30 / 40 | prompt tokens, 40 turns | cached share | cost, 40 turns (USD) | requests starting with the whole previous one: all / between summary steps | mean share of the previous request kept |",
        "|---|---|---|---|---|---|---|",
      );
      const base = byMode.get("resend, message memo off")!;
      const totals = (runs: TurnRecord[][]) => ({
        tokens: mean(runs.map((r) => r.reduce((a, t) => a + t.prompt, 0))),
        cost: mean(runs.map((r) => r.reduce((a, t) => a + t.cost, 0))),
        cached: mean(runs.map((r) => r.reduce((a, t) => a + t.cached, 0))),
      });
      const b = totals(base);
      for (const [mode, runs] of byMode) {
        const tt = totals(runs);
        const at = (i: number) => fmt(mean(runs.map((r) => r[i - 1]!.prompt)));
        const shares = runs.flatMap((r) => r.slice(1).map((t) => t.prefixShare));
        const whole = shares.filter((s) => s === 1).length / shares.length;
        const between = runs.flatMap((r) =>
          r
            .slice(1)
            .filter((t) => !t.step)
            .map((t) => t.prefixShare),
        );
        const wholeBetween = between.filter((s) => s === 1).length / between.length;
        lines.push(
          `| ${mode} | ${[1, 10, 20, 30, 40].map(at).join(" / ")} | ${fmt(tt.tokens)}${runs === base ? "" : ` (${fmt((1 - tt.tokens / b.tokens) * 100, 1)}% fewer)`} | ${fmt((tt.cached / tt.tokens) * 100, 1)}% | ${tt.cost.toFixed(6)}${runs === base ? "" : ` (${fmt((1 - tt.cost / b.cost) * 100, 1)}% less)`} | ${fmt(whole * 100, 1)}% / ${fmt(wholeBetween * 100, 1)}% (${between.length} of ${shares.length}) | ${fmt(mean(shares) * 100, 1)}% |`,
        );
      }
      lines.push("");
    }
  } finally {
    await noMemo.stop();
    await gw.stop();
    openai.stop();
    anthropic.stop();
  }
  return lines;
}

async function part2(chat: string[]): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "svc-bench-conv-"));
  const settings = loadSettings({ ...process.env, SVC_DATA_DIR: dir });
  const deps = await loadOptimizerDeps(settings);
  const models = deps.catalog.models.map((m) => m.id);
  const store = openStore(dir);
  const conv = new Conversations(store, { turnsToKeep: KEEP, summaryStep: settings.conversationSummaryStep, maxTurns: 1000, leaseMs: 60_000 });
  const history: ChatMessage[] = [];
  // Turns 1-39 stored as the gateway stores them (answers: the chat's next message).
  for (let t = 0; t < TURNS - 1; t++) {
    const user: ChatMessage = { role: "user", content: chat[t]! };
    const p = await conv.plan("app", "c", [SYS, user], KEEP);
    const answer: ChatMessage = { role: "assistant", content: chat[t + 1] ?? "ok" };
    await conv.record(p, p.systemNew.length > 0 ? [SYS] : [], [user], answer);
    history.push(user, answer);
  }
  const last: ChatMessage = { role: "user", content: chat[TURNS - 1]! };
  const inputFor = (messages: ChatMessage[]) =>
    optimizeInputOf(
      parseCompletionRequest({ model: "gpt-4o-mini-2024-07-18", messages, svc_options: { cache: false, route: false } }, RULE_NAMES),
      models,
      settings.qualityFloor,
    );
  const whole = inputFor([SYS, ...history, last]);
  const time = async (fn: () => Promise<unknown>) => {
    for (let i = 0; i < 30; i++) await fn();
    const ms: number[] = [];
    for (let i = 0; i < TIMING_RUNS; i++) {
      const t0 = performance.now();
      await fn();
      ms.push(performance.now() - t0);
    }
    return { p50: percentile(ms, 50), p99: percentile(ms, 99) };
  };
  const resend = await time(() => optimize(whole, deps));
  const staged = await time(async () => {
    const p = await conv.plan("app", "c", [SYS, last], KEEP);
    const frame = frameOf([], undefined, p)!;
    const opt = await optimize({ ...whole, messages: frame.toOptimize }, deps);
    return frame.assemble(opt.messages);
  });
  // A client resending its history without conversation_id: turns 1-39 remembered by the message memo.
  const memo = new MessageMemo(settings.messageMemoChars);
  const scope = { appId: "app", aggressiveness: whole.options.max_aggressiveness, skipRules: whole.options.skip_rules };
  const all = [SYS, ...history, last];
  memo.remember(scope, all.slice(0, -1), all.slice(0, -1));
  const memoed = await time(async () => {
    const frame = frameOf(all, undefined, undefined, memo.prefix(scope, all))!;
    const opt = await optimize({ ...whole, messages: frame.toOptimize }, deps);
    return frame.assemble(opt.messages);
  });
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return [
    "### The optimizer's time on turn 40 (in-process, memo off, one thread)",
    "",
    "| client | p50 ms | p99 ms |",
    "|---|---|---|",
    `| resends 40 turns + system prompt (every stage but the cache and routing) | ${resend.p50.toFixed(3)} | ${resend.p99.toFixed(3)} |`,
    `| conversation_id: the stage's plan (store read, summary step) + the optimizer on the new turn + assembly | ${staged.p50.toFixed(3)} | ${staged.p99.toFixed(3)} |`,
    `| resends, message memo: the prefix lookup (79 messages hashed) + the optimizer on the new turn + assembly | ${memoed.p50.toFixed(3)} | ${memoed.p99.toFixed(3)} |`,
    "",
  ];
}

const chats = conversations();
if (chats.length < N) throw new Error(`only ${chats.length} conversations of ${TURNS} turns could be built`);
const out = ["## Conversations and prompt caching (`bun bench/conversation.ts`)", "", ...(await part1(chats)), ...(await part2(chats[0]!))];
console.log(out.join("\n"));
process.exit(0);
