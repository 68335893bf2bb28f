import { describe, expect, test } from "bun:test";
import { SettingsSchema } from "../../src/config/config";
import { ALL_TYPES } from "../../src/pipeline/pii/detect";
import { maskRequest, piiTypesOf } from "../../src/pipeline/pii/request";
import { PII_TYPES } from "../../src/pipeline/pii/types";
import { runCli } from "../support/gateway-process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CompletionRequest } from "../../src/pipeline/request";

const request = (mask: boolean, content: string) =>
  ({ model: "auto", messages: [{ role: "user", content }], svc_options: { mask_pii: mask } }) as unknown as CompletionRequest;

describe("masking a request", () => {
  test("only when svc_options.mask_pii asks for it", () => {
    const off = maskRequest(request(false, "Mail jane.doe@example.com"));
    expect(off.masked).toBe(false);
    expect(off.req.messages[0]!.content).toBe("Mail jane.doe@example.com");
    const on = maskRequest(request(true, "Mail jane.doe@example.com"));
    expect(on).toMatchObject({ masked: true, found: [{ type: "EMAIL", message: 0, start: 5, end: 25 }] });
    expect(on.req.messages[0]!.content).toBe("Mail [EMAIL_1]");
  });

  test("the setting names the detectors; its pattern in the config lists exactly PII_TYPES", () => {
    expect([...piiTypesOf("EMAIL,PHONE")]).toEqual(["EMAIL", "PHONE"]);
    expect(piiTypesOf("")).toBe(ALL_TYPES);
    const schema = SettingsSchema.properties.piiTypes as unknown as { default: string; pattern: string };
    expect(schema.default.split(",")).toEqual([...PII_TYPES]);
    expect(schema.pattern).toContain(`(?:${PII_TYPES.join("|")})`);
    const only = maskRequest(request(true, "Mail jane.doe@example.com or +44 20 7946 0958"), piiTypesOf("PHONE"));
    expect(only.req.messages[0]!.content).toBe("Mail jane.doe@example.com or [PHONE_1]");
  });
});

describe("svc optimize shows what was found", () => {
  test("type, message index and offsets; the messages as they would go upstream", async () => {
    const env = { SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "pii-cli-")) };
    const line = JSON.stringify({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Please email jane.doe@example.com the invoice." },
      ],
      svc_options: { mask_pii: true, compress: false },
    });
    const r = await runCli(["optimize"], env, line + "\n");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout.trim());
    expect(out.pii).toEqual([{ type: "EMAIL", message: 1, start: 13, end: 33 }]);
    expect(out.svc_meta.pii_masked).toBe(true);
    expect(out.messages[1].content).toBe("Please email [EMAIL_1] the invoice.");
    expect(r.stdout).not.toContain("jane.doe");
  });
});
