import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadSettings, envName } from "../../src/config/config";
import { runCli } from "../support/gateway-process";

describe("configuration", () => {
  test("every setting has a default", () => {
    const s = loadSettings({});
    expect(s).toMatchObject({ host: "127.0.0.1", port: 8080, dataDir: "./data", testKeyDailyCalls: 100, qualityFloor: 85 });
  });

  test("env vars override the config file, which overrides defaults", () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-cfg-"));
    const file = join(dir, "svc.json");
    writeFileSync(file, JSON.stringify({ port: 9000, logLevel: "warn" }));
    const s = loadSettings({ SVC_CONFIG: file, SVC_PORT: "9100" });
    expect(s.port).toBe(9100);
    expect(s.logLevel).toBe("warn");
  });

  test("a bad value is refused with a message that names the setting", () => {
    expect(() => loadSettings({ SVC_PORT: "eighty" })).toThrow(/SVC_PORT/);
    expect(() => loadSettings({ SVC_QUALITY_FLOOR: "101" })).toThrow(/SVC_QUALITY_FLOOR/);
    expect(() => loadSettings({ SVC_LOG_LEVEL: "loud" })).toThrow(/SVC_LOG_LEVEL/);
    const dir = mkdtempSync(join(tmpdir(), "svc-cfg-"));
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ prot: 1 }));
    expect(() => loadSettings({ SVC_CONFIG: join(dir, "bad.json") })).toThrow(/prot/);
    expect(envName("workerQueueLimit")).toBe("SVC_WORKER_QUEUE_LIMIT");
  });

  test("a Redis URL that is not redis:// or rediss:// is refused without printing it (it may hold a password)", () => {
    expect(loadSettings({ SVC_REDIS_URL: "rediss://:pw@cache:6380/2" }).redisUrl).toBe("rediss://:pw@cache:6380/2");
    expect(loadSettings({}).redisUrl).toBeUndefined();
    let message = "";
    try {
      loadSettings({ SVC_REDIS_URL: "http://:s3cret-pw@cache:6379" });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain("SVC_REDIS_URL");
    expect(message).not.toContain("s3cret");
    expect(() => loadSettings({ SVC_REDIS_PREFIX: "has space" })).toThrow(/SVC_REDIS_PREFIX/);
  });

  test("a switch reads true, false, 1 or 0 and nothing else", () => {
    expect(loadSettings({}).cacheUnsetTemperature).toBe(true);
    expect(loadSettings({ SVC_CACHE_UNSET_TEMPERATURE: "false" }).cacheUnsetTemperature).toBe(false);
    expect(loadSettings({}).debugHeap).toBe(false);
    expect(loadSettings({ SVC_DEBUG_HEAP: "true" }).debugHeap).toBe(true);
    expect(loadSettings({ SVC_DEBUG_HEAP: "1" }).debugHeap).toBe(true);
    expect(loadSettings({ SVC_DEBUG_HEAP: "0" }).debugHeap).toBe(false);
    expect(() => loadSettings({ SVC_DEBUG_HEAP: "yes" })).toThrow(/SVC_DEBUG_HEAP/);
  });

  test("svc serve with a bad setting stops at once and says which", async () => {
    const r = await runCli(["serve"], { SVC_PORT: "99999", SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-cfg-")) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("SVC_PORT");
  });
});
