import { describe, expect, test } from "bun:test";
import { call } from "../support/gateway-process";
import { rigPerFile } from "./support";

// SVC_WORKERS=0: no worker pool, the models load once on the event loop and serve the cache too.
const rig = rigPerFile({ SVC_WORKERS: "0" });

describe("every stage on the event loop (SVC_WORKERS=0)", () => {
  test("compresses, routes, scores and caches like the worker pool does", async () => {
    const body = {
      model: "auto",
      messages: [{ role: "user", content: "I was wondering if you could possibly help me write a Python function that reverses a linked list." }],
    };
    const first = (await (await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body })).json()) as any;
    expect(first.svc_meta).toMatchObject({ cache_hit: false, routing_reason: expect.any(String) });
    expect(first.svc_meta.compressed_tokens).toBeLessThan(first.svc_meta.original_tokens);
    expect(first.svc_meta.quality_score).toBeGreaterThanOrEqual(85);
    const before = rig.openai.requests.length;
    const again = (await (await call(`${rig.gw.url}/v1/complete`, rig.admin.key, { body })).json()) as any;
    expect(again.svc_meta.cache_hit).toBe(true);
    expect(rig.openai.requests.length).toBe(before);
  });
});
