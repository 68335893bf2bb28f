import { describe, expect, test } from "bun:test";
import { PlaceholderMap } from "../../src/pipeline/pii/placeholders";
import { ConversationMaps, deriveMappingKey, openMap, sealMap } from "../../src/pipeline/pii/vault";

const map = PlaceholderMap.from([{ type: "EMAIL", n: 1, value: "jane.doe@example.com" }]);
const key = deriveMappingKey("server-secret");

describe("placeholder maps at rest", () => {
  test("sealed with AES-GCM: no value in the box, opens for its owner only", () => {
    const sealed = sealMap(map, key, "app1/conv1");
    expect(Buffer.from(sealed, "base64").toString("latin1")).not.toContain("jane");
    expect(sealed).not.toContain("jane");
    expect(openMap(sealed, key, "app1/conv1")!.valueOf("EMAIL_1")).toBe("jane.doe@example.com");
    expect(openMap(sealed, key, "app2/conv1")).toBeUndefined();
    expect(openMap(sealed, deriveMappingKey("another-secret"), "app1/conv1")).toBeUndefined();
  });

  test("a tampered box does not open", () => {
    const raw = Buffer.from(sealMap(map, key, "o"), "base64");
    raw[raw.length - 1]! ^= 1;
    expect(openMap(raw.toString("base64"), key, "o")).toBeUndefined();
  });

  test("conversations expire after their time to live and past the size bound", () => {
    let now = 0;
    const maps = new ConversationMaps(key, 2, 1000, () => now);
    maps.put("a", map);
    maps.put("b", map);
    maps.put("c", map);
    expect(maps.get("a")).toBeUndefined();
    expect(maps.get("b")?.size).toBe(1);
    now = 5000;
    expect(maps.get("c")).toBeUndefined();
  });
});
