import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startOpenAIMock } from "../mocks/openai-mock";
import { call, startGateway, type GatewayProcess, type KeyCreated } from "../support/gateway-process";
import { readSse, waitForKey } from "../completions/support";

type Msg = { role: string; content: string };
const dataDir = mkdtempSync(join(tmpdir(), "svc-convo-conv-"));
const openai = startOpenAIMock({ apiKey: "sk-mock" });
const env = { OPENAI_API_KEY: "sk-mock", OPENAI_BASE_URL: `${openai.url}/v1`, SVC_CONVERSATION_SUMMARY_STEP: "4", SVC_CONVERSATION_MAX_TURNS: "40" };
let gw: GatewayProcess;
let admin: KeyCreated;
let other: KeyCreated;

beforeAll(async () => {
  gw = await startGateway(env, { dataDir });
  admin = await gw.cliKey(["--admin", "--app", "app-a"]);
  other = await gw.cliKey(["--admin", "--app", "app-b"]);
  for (const k of [admin, other]) await waitForKey(gw.url, k.key);
}, 60_000);
afterAll(async () => {
  await gw.stop();
  openai.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const OPTS = { cache: false, route: false, compress: false };
async function say(conv: string, messages: Msg[], extra: Record<string, unknown> = {}, key = admin.key) {
  const r = await call(`${gw.url}/v1/complete`, key, { body: { model: "gpt-4o-mini", messages, svc_options: { ...OPTS, conversation_id: conv, ...extra } } });
  const body = (await r.json()) as any;
  return { status: r.status, body, sent: (openai.requests.at(-1)!.body as { messages: Msg[] }).messages };
}
const view = async (conv: string, key = admin.key) => {
  const r = await call(`${gw.url}/api/conversations/${conv}`, key);
  return { status: r.status, body: (await r.json()) as any };
};
// A chat turn: small talk around one question with a name and a number, as people write.
const question = (i: number) =>
  `Oh that is so interesting, thank you so much for explaining it that way, it really helps me a lot. I have been reading about this all afternoon and honestly it is fascinating stuff. Anyway, what did Ada Lovelace write about the Analytical Engine in note ${i}?`;

describe("conversations", () => {
  test("a client sending only the new turns: svc sends the stored history, stores the answer, echoes the id", async () => {
    const a = await say("c-append", [
      { role: "system", content: "You are terse." },
      { role: "user", content: question(1) },
    ]);
    expect(a.status).toBe(200);
    expect(a.body.svc_meta.conversation_id).toBe("c-append");
    const b = await say("c-append", [{ role: "user", content: question(2) }]);
    expect(b.sent).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: question(1) },
      { role: "assistant", content: a.body.choices[0].message.content },
      { role: "user", content: question(2) },
    ]);
    expect((await view("c-append")).body).toEqual({ id: "c-append", turns: 4, kept_turns: 4, summarized_turns: 0, summary: null, tokens_saved: 0 });
  });

  test("a client resending the whole history is told apart: the stored turns are a prefix of what it sent", async () => {
    const a = await say("c-resend", [{ role: "user", content: question(1) }]);
    const history = [
      { role: "user", content: question(1) },
      { role: "assistant", content: a.body.choices[0].message.content },
      { role: "user", content: question(2) },
    ];
    const b = await say("c-resend", history);
    expect(b.sent).toEqual(history);
    expect((await view("c-resend")).body.turns).toBe(4);
  });

  test("a resent history that contradicts the stored one wins: the stored turns from the difference on are replaced", async () => {
    const a = await say("c-edit", [{ role: "user", content: question(1) }]);
    const b = await say("c-edit", [{ role: "user", content: question(2) }]);
    expect((await view("c-edit")).body.turns).toBe(4);
    // The client edited its second question and resends.
    const edited = [
      { role: "user", content: question(1) },
      { role: "assistant", content: a.body.choices[0].message.content },
      { role: "user", content: "Something else entirely: who was Charles Babbage?" },
    ];
    const c = await say("c-edit", edited);
    expect(c.sent).toEqual(edited);
    expect(c.sent.some((m) => m.content === b.body.choices[0].message.content)).toBe(false);
    expect((await view("c-edit")).body.turns).toBe(4);
  });

  test("older turns go into an extractive summary, rewritten only in steps; between steps each request starts with the previous one, byte for byte", async () => {
    const requests: Msg[][] = [];
    const metas: any[] = [];
    for (let i = 1; i <= 12; i++) {
      const r = await say("c-long", [{ role: "user", content: question(i) }], { max_turns_to_keep: 4 });
      expect(r.status).toBe(200);
      requests.push(r.sent);
      metas.push(r.body.svc_meta);
    }
    const summaryOf = (ms: Msg[]) => ms.find((m) => m.role === "system" && m.content.startsWith("Summary of the earlier part"))?.content;
    let steps = 0;
    for (let i = 1; i < requests.length; i++) {
      const prev = requests[i - 1]!;
      const cur = requests[i]!;
      const prefixKept = JSON.stringify(cur.slice(0, prev.length)) === JSON.stringify(prev);
      if (summaryOf(prev) !== summaryOf(cur)) steps++;
      else expect(prefixKept).toBe(true);
    }
    // 24 turns, 4 kept, a step every 4: the summary changed a few times, not on every call.
    expect(steps).toBeGreaterThanOrEqual(2);
    expect(steps).toBeLessThanOrEqual(5);
    const last = requests.at(-1)!;
    const summary = summaryOf(last)!;
    // Names and numbers survive; the kept turns go as they were.
    expect(summary).toContain("Ada Lovelace");
    expect(summary).toContain("note 1?");
    expect(summary).not.toContain("fascinating stuff");
    expect(last.length).toBeLessThan(24);
    expect(last.at(-1)).toEqual({ role: "user", content: question(12) });
    expect(metas.at(-1).conversation_tokens_saved).toBeGreaterThan(0);
    const v = (await view("c-long")).body;
    expect(v.turns).toBe(24);
    expect(v.summarized_turns + v.kept_turns).toBe(24);
    expect(v.summarized_turns).toBeGreaterThan(0);
    expect(v.summary).toBe(summary);
    expect(v.tokens_saved).toBeGreaterThan(0);
  });

  test("compressed forms of earlier turns are made once and resent byte-identical", async () => {
    const wordy =
      "Hi there! I was wondering if you could possibly help me understand, in order to prepare for my exam on 12 May, what the main causes of the French Revolution were. Thanks in advance!";
    const a = await say("c-comp", [{ role: "user", content: wordy }], { compress: true });
    const firstSent = a.sent.at(-1)!.content;
    expect(firstSent.length).toBeLessThan(wordy.length);
    for (const q of ["And the main effects?", "Who was Robespierre?"]) {
      const r = await say("c-comp", [{ role: "user", content: q }], { compress: true });
      expect(r.sent[0]).toEqual({ role: "user", content: firstSent });
    }
  });

  test("a streamed call is stored like a plain one", async () => {
    const r = await call(`${gw.url}/v1/complete`, admin.key, {
      body: { model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: question(1) }], svc_options: { ...OPTS, conversation_id: "c-stream" } },
    });
    const frames = await readSse(r);
    const text = frames
      .slice(0, -1)
      .map((f) => JSON.parse(f))
      .map((c) => c.choices[0]?.delta?.content ?? "")
      .join("");
    expect(JSON.parse(frames.at(-2)!).svc_meta.conversation_id).toBe("c-stream");
    const b = await say("c-stream", [{ role: "user", content: question(2) }]);
    expect(b.sent[1]).toEqual({ role: "assistant", content: text });
  });

  test("two calls on one conversation at once run one after the other: the second sees the first's turns", async () => {
    openai.latencyMs = 300;
    try {
      const before = openai.requests.length;
      const [x, y] = await Promise.all([
        say("c-race", [{ role: "user", content: question(1) }]),
        Bun.sleep(30).then(() => say("c-race", [{ role: "user", content: question(2) }])),
      ]);
      expect([x.status, y.status]).toEqual([200, 200]);
      const [first, second] = openai.requests.slice(before).map((r) => (r.body as { messages: Msg[] }).messages);
      expect(first).toHaveLength(1);
      expect(second!.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
      expect((await view("c-race")).body.turns).toBe(4);
    } finally {
      openai.latencyMs = 0;
    }
  });

  test("another app's conversation is 404 NOT_FOUND, and its calls never see this app's turns", async () => {
    for (const method of ["GET", "DELETE"]) {
      const r = await call(`${gw.url}/api/conversations/c-append`, other.key, { method });
      expect(r.status).toBe(404);
      expect(((await r.json()) as any).error.code).toBe("NOT_FOUND");
    }
    expect((await view("never-used")).status).toBe(404);
    const r = await say("c-append", [{ role: "user", content: "Hello?" }], {}, other.key);
    expect(r.sent).toEqual([{ role: "user", content: "Hello?" }]);
    expect((await view("c-append")).body.turns).toBe(4);
  });

  test("a conversation grows only to the operator's limit (SVC_CONVERSATION_MAX_TURNS), then 400 until deleted", async () => {
    let status = 200;
    let body: any;
    for (let i = 0; i < 25 && status === 200; i++) ({ status, body } = await say("c-full", [{ role: "user", content: question(i) }]));
    expect(status).toBe(400);
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.message).toContain("SVC_CONVERSATION_MAX_TURNS");
    expect((await view("c-full")).body.turns).toBeLessThanOrEqual(40);
    const d = await call(`${gw.url}/api/conversations/c-full`, admin.key, { method: "DELETE" });
    expect(d.status).toBe(200);
    expect((await view("c-full")).status).toBe(404);
    expect((await say("c-full", [{ role: "user", content: "again" }])).status).toBe(200);
  });

  test("deleting needs the admin scope", async () => {
    const reader = await gw.cliKey(["--app", "app-a"]);
    await waitForKey(gw.url, reader.key);
    expect((await view("c-append", reader.key)).status).toBe(200);
    expect((await call(`${gw.url}/api/conversations/c-append`, reader.key, { method: "DELETE" })).status).toBe(403);
  });

  test("after a restart the summary and the sent forms survive: the next request starts with the last one", async () => {
    const before = await say("c-long", [{ role: "user", content: question(13) }], { max_turns_to_keep: 4 });
    const summary = (await view("c-long")).body.summary;
    await gw.stop();
    gw = await startGateway(env, { dataDir });
    await waitForKey(gw.url, admin.key);
    expect((await view("c-long")).body.summary).toBe(summary);
    const after = await say("c-long", [{ role: "user", content: question(14) }], { max_turns_to_keep: 4 });
    expect(after.sent.slice(0, before.sent.length)).toEqual(before.sent);
  }, 90_000);
});
