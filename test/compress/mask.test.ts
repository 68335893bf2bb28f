import { describe, expect, test } from "bun:test";
import {
  mask,
  PLACEHOLDER_CHAR_SOURCE,
  PLACEHOLDER_CLOSE_SOURCE,
  PLACEHOLDER_SOURCE,
  placeholdersPresent,
  UnmaskedReader,
  unmask,
} from "../../src/pipeline/compress/protect/mask";

// The placeholder alphabet, spelled out here on purpose: a change to it must show in these tests.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const digit = (d: number) => String.fromCharCode(0xe100 + d);
/** The placeholder of span `index`: OPEN, the index in base 4096 (one character per digit), CLOSE. */
const P = (index: number) => {
  let digits = "";
  do {
    digits = digit(index % 4096) + digits;
    index = Math.floor(index / 4096);
  } while (index > 0);
  return OPEN + digits + CLOSE;
};

describe("mask", () => {
  test("each protected span becomes a placeholder numbered in order of appearance, and unmask puts each back", () => {
    const text = "Call `make_list(a, b)` and then `free_list(a)` before the end.";
    const m = mask(text)!;
    expect(m.originals).toEqual(["`make_list(a, b)`", "`free_list(a)`"]);
    expect(m.masked).toBe(`Call ${P(0)} and then ${P(1)} before the end.`);
    expect(unmask(m.masked, m.originals)).toBe(text);
  });

  test("past 4096 spans a placeholder takes two digits, and still unmasks", () => {
    const text = Array.from({ length: 4100 }, (_, i) => `\`v${i}\``).join(" and ");
    const m = mask(text)!;
    expect(m.originals).toHaveLength(4100);
    expect(m.masked).toContain(`${P(4095)} and ${OPEN}${digit(1)}${digit(0)}${CLOSE} and ${OPEN}${digit(1)}${digit(1)}${CLOSE}`);
    expect(unmask(m.masked, m.originals)).toBe(text);
    expect(placeholdersPresent(m.masked, 4100)!.size).toBe(4100);
  });

  test("text that already holds a character of the alphabet is not masked; other private-use characters (icon fonts) are", () => {
    for (const code of [0xe000, 0xe001, 0xe100, 0xe1ff, 0xf0ff]) expect(mask(`the icon ${String.fromCharCode(code)} here`)).toBeNull();
    // Font Awesome draws its icons at U+F000-U+F8FF: the ones past the alphabet are ordinary text here.
    for (const code of [0xf100, 0xf101, 0xf102, 0xf8ff]) {
      const text = `the icon ${String.fromCharCode(code)} and \`code\``;
      const m = mask(text)!;
      expect(m.originals).toEqual(["`code`"]);
      expect(placeholdersPresent(m.masked, 1)).toEqual(new Set([0]));
      expect(unmask(m.masked, m.originals)).toBe(text);
    }
  });
});

describe("the regex sources rules match around placeholders with", () => {
  test("a whole placeholder, its closing character, and any character of the alphabet, nothing else", () => {
    const whole = new RegExp(PLACEHOLDER_SOURCE, "g");
    const text = `a ${P(0)} b ${P(4097)} c ${OPEN}${CLOSE} d ${OPEN}${digit(3)}`;
    expect(text.match(whole)).toEqual([P(0), P(4097)]);
    expect(`x${P(5)}y`.replace(new RegExp(PLACEHOLDER_CLOSE_SOURCE, "g"), "|")).toBe(`x${OPEN}${digit(5)}|y`);
    const alphabet = new RegExp(`^[${PLACEHOLDER_CHAR_SOURCE}]$`);
    for (const code of [0xe000, 0xe001, 0xe100, 0xf0ff]) expect(alphabet.test(String.fromCharCode(code))).toBe(true);
    for (const code of [0xdfff, 0xf100, 0xf101, 0x41]) expect(alphabet.test(String.fromCharCode(code))).toBe(false);
  });
});

describe("placeholdersPresent: the check that sends a message unchanged when a rule damaged a placeholder", () => {
  test("whole placeholders: the indexes left, a removed one missing", () => {
    expect(placeholdersPresent(`a ${P(0)} b ${P(2)}`, 3)).toEqual(new Set([0, 2]));
    expect(placeholdersPresent(`${P(1)}${P(0)}`, 2)).toEqual(new Set([0, 1]));
    expect(placeholdersPresent("no placeholders", 2)).toEqual(new Set());
    expect(placeholdersPresent(`ends with ${P(0)}`, 1)).toEqual(new Set([0]));
  });

  test("a damaged placeholder is null: cut, emptied, doubled or out of range", () => {
    const damaged = [
      `cut after its digit ${OPEN}${digit(0)} and more`,
      `cut at the very end ${OPEN}${digit(0)}`,
      `cut after OPEN ${OPEN}`,
      `no digits ${OPEN}${CLOSE}`,
      `a digit alone ${digit(0)}`,
      `a CLOSE alone ${CLOSE}`,
      `digits, no OPEN ${digit(0)}${CLOSE}`,
      `two digits, no OPEN ${digit(0)}${digit(1)}${CLOSE}`,
      `OPEN in the digits ${OPEN}${digit(0)}${OPEN}${digit(1)}${CLOSE}`,
      `twice ${P(0)} and ${P(0)}`,
      `an index past the spans ${P(2)}`,
      `the last digit code ${OPEN}${String.fromCharCode(0xf0ff)}${CLOSE}`,
    ];
    for (const text of damaged) expect({ text, present: placeholdersPresent(text, 2) }).toEqual({ text, present: null });
    // The last index is in range; the one after it is not.
    expect(placeholdersPresent(P(1), 2)).toEqual(new Set([1]));
    expect(placeholdersPresent(P(2), 3)).toEqual(new Set([2]));
  });
});

describe("unmask", () => {
  const originals = ["`x`", "", "`zz`"];

  test("whole placeholders anywhere: at the start, side by side, at the end, with an empty original", () => {
    expect(unmask(`${P(0)} then`, originals)).toBe("`x` then");
    expect(unmask(`${P(0)}${P(2)}`, originals)).toBe("`x``zz`");
    expect(unmask(`a${P(1)}b`, originals)).toBe("ab");
    expect(unmask(`end ${P(2)}`, originals)).toBe("end `zz`");
    expect(unmask("plain text", originals)).toBe("plain text");
  });

  test("a damaged placeholder stays as the characters it is; the whole ones beside it are restored", () => {
    for (const damaged of [`${OPEN}${digit(0)}`, `${OPEN}${CLOSE}`, `${OPEN}${digit(0)}x${CLOSE}`, P(7), OPEN]) {
      expect(unmask(`a ${damaged} b`, originals)).toBe(`a ${damaged} b`);
      expect(unmask(`${P(0)} ${damaged} ${P(2)}`, originals)).toBe(`\`x\` ${damaged} \`zz\``);
      expect(unmask(`${P(0)}${damaged}`, originals)).toBe(`\`x\`${damaged}`);
    }
  });
});

describe("UnmaskedReader", () => {
  const text = 'Call `f(a)` then `g(b)`, and "a quoted part" at the end.';
  const m = mask(text)!;

  /** Every stretch `read` visits, checked never to be empty, joined. */
  function read(reader: UnmaskedReader, from: number, to: number): string {
    let out = "";
    reader.read(from, to, (source, start, end) => {
      expect(end).toBeGreaterThan(start);
      out += source.slice(start, end);
    });
    return out;
  }

  test("an empty original is read as nothing, never as an empty stretch", () => {
    const masked = `a${P(0)}b${P(1)}`;
    expect(read(new UnmaskedReader(masked, ["", "`x`"]), 0, masked.length)).toBe("ab`x`");
  });

  test("reads any range, in any order, as unmask of the same slice", () => {
    expect(m.originals.length).toBeGreaterThanOrEqual(3);
    const n = m.masked.length;
    const ranges: [number, number][] = [];
    // Front to back, back to front, overlapping, repeated, empty, and ranges that cut placeholders.
    for (let from = 0; from <= n; from++) ranges.push([from, Math.min(n, from + 7)]);
    for (let from = n; from >= 0; from--) ranges.push([from, n]);
    for (let i = 0; i < 200; i++) {
      const a = (i * 37) % (n + 1);
      const b = (i * 53 + 11) % (n + 1);
      ranges.push([Math.min(a, b), Math.max(a, b)]);
    }
    const reader = new UnmaskedReader(m.masked, m.originals);
    for (const [from, to] of ranges)
      expect({ from, to, read: read(reader, from, to) }).toEqual({ from, to, read: unmask(m.masked.slice(from, to), m.originals) });
    // A fresh reader asked for a range past the first placeholder, then for the whole text.
    const fresh = new UnmaskedReader(m.masked, m.originals);
    const second = m.masked.indexOf(OPEN, m.masked.indexOf(CLOSE));
    expect(read(fresh, second, n)).toBe(unmask(m.masked.slice(second), m.originals));
    expect(read(fresh, 0, n)).toBe(text);
    expect(fresh.unmask(0, n)).toBe(text);
  });
});
