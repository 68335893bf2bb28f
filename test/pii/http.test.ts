import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { call, startGateway } from "../support/gateway-process";
import { readSse, rigPerFile } from "../completions/support";

// Debug logging: every log line the gateway can write about a call is checked for the values.
const rig = rigPerFile({ SVC_LOG_LEVEL: "debug", SVC_FLUSH_MS: "50" });

const EMAIL = "jane.doe@example.com";
const PHONE = "+44 20 7946 0958";
const OTHER_EMAIL = "bob.roe@example.org";
const VALUES = [EMAIL, PHONE, OTHER_EMAIL, "jane.doe", "bob.roe", "7946 0958"];
const OPTIONS = { mask_pii: true, compress: false, score: false, cache: false };
const TOOLS = [{ type: "function", function: { name: "send_email", parameters: { type: "object", properties: { to: { type: "string" } } } } }];

const complete = (body: Record<string, unknown>) => call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body: { model: "gpt-4o-mini", ...body } });
const lastUpstreamBody = () => JSON.stringify(rig.openai.requests.at(-1)!.body);

/** The text of an SSE answer: its deltas' content joined. */
async function streamedText(res: Response): Promise<{ text: string; args: string; payloads: string[] }> {
  const payloads = await readSse(res);
  let text = "";
  let args = "";
  for (const p of payloads) {
    if (p === "[DONE]") continue;
    const chunk = JSON.parse(p);
    for (const c of chunk.choices ?? []) {
      text += c.delta?.content ?? "";
      for (const t of c.delta?.tool_calls ?? []) args += t.function?.arguments ?? "";
    }
  }
  return { text, args, payloads };
}

describe("mask_pii over HTTP", () => {
  test("JSON: the provider sees placeholders, the client the values; svc_meta.pii_masked", async () => {
    const res = await complete({ messages: [{ role: "user", content: `Please email ${EMAIL} and call ${PHONE} today.` }], svc_options: OPTIONS });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(lastUpstreamBody()).toContain("Please email [EMAIL_1] and call [PHONE_1] today.");
    for (const v of VALUES) expect(lastUpstreamBody()).not.toContain(v);
    // The mock echoes the first words it heard, placeholders included; the client gets the values back.
    expect(body.choices[0].message.content).toContain(`heard: Please email ${EMAIL} and call ${PHONE}`);
    expect(body.choices[0].message.content).not.toContain("[EMAIL_1]");
    expect(body.svc_meta.pii_masked).toBe(true);
  });

  test("without mask_pii nothing is masked and pii_masked is false", async () => {
    const res = await complete({ messages: [{ role: "user", content: `Please email ${EMAIL} today.` }], svc_options: { ...OPTIONS, mask_pii: false } });
    const body = (await res.json()) as any;
    expect(lastUpstreamBody()).toContain(EMAIL);
    expect(body.svc_meta.pii_masked).toBe(false);
  });

  test("SSE: restored in the stream, no placeholder reaches the client", async () => {
    const res = await complete({ messages: [{ role: "user", content: `Please email ${EMAIL} and call ${PHONE} today.` }], svc_options: OPTIONS, stream: true });
    const { text, payloads } = await streamedText(res);
    expect(text).toContain(`heard: Please email ${EMAIL} and call ${PHONE}`);
    expect(text).not.toContain("[EMAIL_1]");
    expect(JSON.parse(payloads.at(-2)!).svc_meta.pii_masked).toBe(true);
  });

  test("tool-call arguments are restored, as JSON and streamed", async () => {
    rig.openai.toolCall = { id: "call_1", name: "send_email", arguments: { to: "[EMAIL_1]", note: 'call [PHONE_1] "soon"' } };
    try {
      const messages = [{ role: "user", content: `Send a note to ${EMAIL}, phone ${PHONE}.` }];
      const json = (await (await complete({ messages, tools: TOOLS, svc_options: OPTIONS })).json()) as any;
      expect(JSON.parse(json.choices[0].message.tool_calls[0].function.arguments)).toEqual({ to: EMAIL, note: `call ${PHONE} "soon"` });
      const streamed = await streamedText(await complete({ messages, tools: TOOLS, svc_options: OPTIONS, stream: true }));
      expect(JSON.parse(streamed.args)).toEqual({ to: EMAIL, note: `call ${PHONE} "soon"` });
    } finally {
      rig.openai.toolCall = undefined;
    }
  });

  test("a placeholder echoed from an earlier turn of the conversation is restored", async () => {
    const conversation = { ...OPTIONS, conversation_id: "pii-conv-1" };
    await complete({ messages: [{ role: "user", content: `My address is ${EMAIL}.` }], svc_options: conversation });
    // The next turn sends only the new message; the model answers with the old placeholder.
    rig.openai.toolCall = { id: "call_2", name: "send_email", arguments: { to: "[EMAIL_1]" } };
    try {
      const json = (await (
        await complete({ messages: [{ role: "user", content: "Send it to the address I gave you." }], tools: TOOLS, svc_options: conversation })
      ).json()) as any;
      expect(JSON.parse(json.choices[0].message.tool_calls[0].function.arguments)).toEqual({ to: EMAIL });
      // Another conversation of the same app has no such placeholder: left as the model wrote it.
      const other = (await (
        await complete({
          messages: [{ role: "user", content: "Send it to the address I gave you." }],
          tools: TOOLS,
          svc_options: { ...OPTIONS, conversation_id: "pii-conv-2" },
        })
      ).json()) as any;
      expect(JSON.parse(other.choices[0].message.tool_calls[0].function.arguments)).toEqual({ to: "[EMAIL_1]" });
    } finally {
      rig.openai.toolCall = undefined;
    }
  });

  test("a conversation that continues on another gateway process restores the earlier turn's placeholder", async () => {
    const conversation = { ...OPTIONS, conversation_id: "pii-conv-3" };
    await complete({ messages: [{ role: "user", content: `My address is ${OTHER_EMAIL}.` }], svc_options: conversation });
    // A second process on the same store (and so the same server secret), as behind a load balancer.
    const second = await startGateway(rig.gw.env, { dataDir: rig.gw.dataDir });
    rig.openai.toolCall = { id: "call_3", name: "send_email", arguments: { to: "[EMAIL_1]" } };
    try {
      const res = await call(`${second.url}/v1/complete`, rig.admin.key, {
        body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "Send it to the address I gave you." }], tools: TOOLS, svc_options: conversation },
      });
      const json = (await res.json()) as any;
      expect(JSON.parse(json.choices[0].message.tool_calls[0].function.arguments)).toEqual({ to: OTHER_EMAIL });
    } finally {
      rig.openai.toolCall = undefined;
      await second.stop();
    }
  });

  test("deleting the conversation deletes its stored placeholder map", async () => {
    const rows = () => {
      const db = new Database(join(rig.gw.dataDir, "svc.db"), { readonly: true });
      try {
        return (db.query("SELECT count(*) AS n FROM pii_maps WHERE conversation_id = 'pii-conv-3'").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    expect(rows()).toBe(1);
    const res = await call(`${rig.gw.url}/api/conversations/pii-conv-3`, rig.admin.key, { method: "DELETE" });
    expect(res.status).toBe(200);
    expect(rows()).toBe(0);
  });

  test("a cached answer keeps placeholders and is restored with each call's own values", async () => {
    const ask = (email: string, stream = false) =>
      complete({
        messages: [{ role: "user", content: `Write one line thanking ${email} for the invoice.` }],
        svc_options: { ...OPTIONS, cache: true },
        ...(stream && { stream: true }),
      });
    const first = (await (await ask(EMAIL)).json()) as any;
    expect(first.svc_meta.cache_hit).toBe(false);
    expect(first.choices[0].message.content).toContain(EMAIL);
    const second = (await (await ask(OTHER_EMAIL)).json()) as any;
    expect(second.svc_meta.cache_hit).toBe(true);
    expect(second.choices[0].message.content).toContain(OTHER_EMAIL);
    expect(second.choices[0].message.content).not.toContain(EMAIL);
    const replayed = await streamedText(await ask(OTHER_EMAIL, true));
    expect(replayed.text).toContain(OTHER_EMAIL);
    expect(replayed.text).not.toContain("[EMAIL_1]");
  });

  test("a streamed answer is cached with placeholders, not the values it streamed", async () => {
    const ask = (email: string, stream: boolean) =>
      complete({
        messages: [{ role: "user", content: `Reply briefly to ${email} about the meeting.` }],
        svc_options: { ...OPTIONS, cache: true },
        ...(stream && { stream: true }),
      });
    const streamed = await streamedText(await ask(EMAIL, true));
    expect(streamed.text).toContain(EMAIL);
    const hit = (await (await ask(OTHER_EMAIL, false)).json()) as any;
    expect(hit.svc_meta.cache_hit).toBe(true);
    expect(hit.choices[0].message.content).toContain(OTHER_EMAIL);
    expect(hit.choices[0].message.content).not.toContain(EMAIL);
  });

  test("POST /v1/playground shows what was found", async () => {
    const res = await fetch(`${rig.gw.url}/v1/playground`, {
      method: "POST",
      body: JSON.stringify({ messages: [{ role: "user", content: `Call ${PHONE} now.` }], svc_options: { mask_pii: true } }),
    });
    const body = (await res.json()) as any;
    expect(body.pii).toEqual([{ type: "PHONE", message: 0, start: 5, end: 21 }]);
    expect(body.svc_meta.pii_masked).toBe(true);
    expect(body.messages[0].content).toBe("Call [PHONE_1] now.");
  });

  test("no value reaches a log line, a ledger row or a cache entry", async () => {
    // A graceful stop flushes every ledger row and cache entry to the store's files (the last test of the
    // file: the rig's own stop then finds the gateway gone).
    rig.gw.proc.kill("SIGTERM");
    await rig.gw.finished();
    const files = readdirSync(rig.gw.dataDir, { recursive: true })
      .map((f) => join(rig.gw.dataDir, String(f)))
      .filter((f) => statSync(f).isFile());
    const stored = files.map((f) => readFileSync(f).toString("latin1")).join("\n");
    // The cache entries and ledger rows are there (placeholders in the cached answers)...
    expect(stored).toContain("[EMAIL_1]");
    expect(stored).toMatch(/svc_req_/);
    // ...and no value, in the store or in any log line.
    const logs = rig.gw.logs().join("\n");
    expect(logs.length).toBeGreaterThan(0);
    for (const v of VALUES) {
      expect(stored).not.toContain(v);
      expect(logs).not.toContain(v);
    }
  });
});
