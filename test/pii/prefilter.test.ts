import { describe, expect, test } from "bun:test";
import { detectPii } from "../../src/pipeline/pii/detect";
import { hasColonGroup, hasDigitRun } from "../../src/pipeline/pii/detectors/prefilter";

describe("the detectors' pre-checks", () => {
  test("a digit run counts digits joined by up to four of ' .-()'", () => {
    expect(hasDigitRun("dial (12) -(34) now", 4, {})).toBe(true);
    expect(hasDigitRun("(415) 555-0132", 10, {})).toBe(true);
    expect(hasDigitRun("(415) 555-0132", 11, {})).toBe(false);
    expect(hasDigitRun("12 a 34 b 56", 3, {})).toBe(false);
    expect(hasDigitRun("12     34", 3, {})).toBe(false);
    expect(hasDigitRun("no digits at all", 1, {})).toBe(false);
  });

  test("what one threshold told answers the others in the same call, as a fresh test would", () => {
    const text = "card 4111 1111 1111 1111, ref 12";
    const shared = {};
    for (const n of [13, 6, 9, 16, 17, 1, 20]) expect(hasDigitRun(text, n, shared)).toBe(hasDigitRun(text, n, {}));
    const short = "room 12-34";
    const bounded = {};
    for (const n of [6, 13, 4, 5, 9]) expect(hasDigitRun(short, n, bounded)).toBe(hasDigitRun(short, n, {}));
  });

  test("a colon group is a ':' before a hex digit or another ':'", () => {
    expect(hasColonGroup("Note: read this. Then: that")).toBe(false);
    expect(hasColonGroup("see http://example.com")).toBe(false);
    expect(hasColonGroup("fe80::1")).toBe(true);
    expect(hasColonGroup("at 12:30")).toBe(true);
    expect(hasColonGroup("2001:DB8::ff")).toBe(true);
    expect(hasColonGroup("ends with:")).toBe(false);
  });

  test("values at each pre-check's edge are still found", () => {
    const types = (text: string) => detectPii(text).map((d) => `${d.type}:${text.slice(d.start, d.end)}`);
    expect(types("call 12 34 56 today")).toEqual(["PHONE:12 34 56"]);
    expect(types("SSN 123 45 6789 on file")).toEqual(["SSN:123 45 6789"]);
    expect(types("card 4111-1111-1111-1111.")).toEqual(["CARD:4111-1111-1111-1111"]);
    expect(types("host 8.8.4.4 and fe80::1ff:fe23:4567:890a")).toEqual(["IP:8.8.4.4", "IP:fe80::1ff:fe23:4567:890a"]);
    expect(types("key ghp_abcdefghijklmnopqrstuvwxyz0123456789 here")).toEqual(["SECRET:ghp_abcdefghijklmnopqrstuvwxyz0123456789"]);
    expect(types("rk_live_0123456789abcdefXYZ")).toEqual(["SECRET:rk_live_0123456789abcdefXYZ"]);
    expect(types("PASSWORD: s3cr3tValue9")).toEqual(["SECRET:s3cr3tValue9"]);
  });
});
