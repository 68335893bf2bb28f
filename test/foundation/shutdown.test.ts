import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { call } from "../support/gateway-process";
import { OFF, startRig } from "../completions/support";

describe("graceful shutdown", () => {
  test("in-flight requests finish, their ledger rows are written, and the store closes cleanly", async () => {
    const rig = await startRig({ SVC_FLUSH_MS: "60000" });
    rig.openai.latencyMs = 600;
    const inflight = call(`${rig.gw.url}/v1/complete`, rig.admin.key, {
      body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "slow one" }], svc_options: OFF },
    });
    await Bun.sleep(150);
    rig.gw.proc.kill("SIGTERM");
    const res = await inflight;
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { id: string }).id;
    expect(await rig.gw.finished()).toBe(0);
    rig.openai.stop();
    const wal = join(rig.gw.dataDir, "svc.db-wal");
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const db = new Database(join(rig.gw.dataDir, "svc.db"), { readonly: true });
    expect(db.query("SELECT status FROM usage_ledger WHERE request_id = ?").get(id)).toEqual({ status: 200 });
    db.close();
    const logs = rig.gw.logs().join("\n");
    expect(logs).toContain('"msg":"stopped"');
  });
});
