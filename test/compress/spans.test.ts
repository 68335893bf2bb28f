import { describe, expect, test } from "bun:test";
import { dataSpans } from "../../src/pipeline/compress/protect/data-spans";
import { opensWithMarker, protectedSpans } from "../../src/pipeline/compress/protect/spans";

/**
 * The guard's detectors one by one, as the exact text each protects (issue 33: the compression tests
 * checked that a span survives a squeeze, which passes whenever no rule happens to touch it; these
 * fail when a detector protects a character more or less). Each input holds only what the detector
 * under test reads, so the merged spans are that detector's own. They call protectedSpans alone,
 * without the compressor, so a mutation run spends ~0.3 s on them per mutant.
 */
const spans = (text: string) => protectedSpans(text).map((s) => text.slice(s.start, s.end));

describe("code", () => {
  test("a fence of backticks anywhere or tildes at a line start runs to the next fence of its kind and length", () => {
    expect(spans("x\n~~~\ncode here\n~~~\nafter the end")).toEqual(["~~~\ncode here\n~~~"]);
    expect(spans("x\n````\ninner ``` still code\n````\ntail words")).toEqual(["````\ninner ``` still code\n````"]);
    expect(spans("x\n```\n~~~\nstill\n```\nthe tail")).toEqual(["```\n~~~\nstill\n```"]);
    expect(spans("see ```a``` here\nand ```b``` there")).toEqual(["```a```", "```b```"]);
  });

  test("an unclosed fence runs to the end; tildes inside a line open nothing", () => {
    expect(spans("x\n```\nopen to the end of it")).toEqual(["```\nopen to the end of it"]);
    expect(spans("a ~~~ then ~~~ here")).toEqual([]);
  });

  test("inline code is one line between backticks", () => {
    expect(spans("Use `a b` and `c` here")).toEqual(["`a b`", "`c`"]);
    expect(spans("a `tick\nacross` lines")).toEqual([]);
  });

  test("a line that opens with a keyword or ends in ; { } is code; brackets alone are not", () => {
    expect(spans("def f(x)\nplain words")).toEqual(["def f(x)"]);
    expect(spans("the line ends in a brace {\nnext words")).toEqual(["the line ends in a brace {"]);
    expect(spans("x = 1;\nplain words")).toEqual(["x = 1;"]);
    expect(spans("{\n}\nplain words")).toEqual([]);
    expect(spans("plain\r\nreturn x\r\nwords")).toEqual(["return x\r"]);
  });

  test("a block indented four spaces or a tab after a blank line is code, a list item is not", () => {
    expect(spans("text\n\n    indented code\n    more\nafter words")).toEqual(["    indented code\n    more"]);
    expect(spans("text\n\n\tcode line\nwords")).toEqual(["\tcode line"]);
    expect(spans("text\n    after a line\nwords")).toEqual([]);
  });
});

describe("links and paths", () => {
  test("a URL without the sentence's punctuation after it; a closing bracket only when it opened inside", () => {
    expect(spans("see https://example.com. next")).toEqual(["https://example.com"]);
    expect(spans("see (https://example.com) next")).toEqual(["https://example.com"]);
    expect(spans("see https://example.com/wiki/a_(b) next")).toEqual(["https://example.com/wiki/a_(b)"]);
    expect(spans("go to www.example.com, now")).toEqual(["www.example.com"]);
    expect(spans("say ftp://x.y?a=1! ok")).toEqual(["ftp://x.y?a=1"]);
  });

  test("emails and file paths", () => {
    expect(spans("mail me at joe.b@ex.co.uk please")).toEqual(["joe.b@ex.co.uk"]);
    expect(spans("the file ./src/a.ts and ~/x/y and /etc/hosts ok")).toEqual(["./src/a.ts", "~/x/y", "/etc/hosts"]);
    expect(spans("the ratio a/b is fine")).toEqual([]);
  });
});

describe("quotations", () => {
  test("every kind of quotation mark, quotes and all", () => {
    for (const q of ['"the plan is good"', "“the plan”", "‘the plan’", "«the plan»", "„the plan“", "「the plan」", "'the plan'"])
      expect(spans(`write ${q} here`)).toEqual([q]);
  });

  test("an apostrophe inside a word opens no quotation", () => {
    expect(spans("the dog's bone and the cat's toy")).toEqual([]);
  });

  test("after a stray inch mark the quotation is still found by its edges", () => {
    expect(spans('a 27" screen. She said "we see it" to them.')).toEqual(['27" screen. She said "we see it"']);
    expect(spans('x " y " z')).toEqual(['" y "']);
  });

  test("escaped quotations pasted on one line", () => {
    expect(spans('A 5" box. Say {\\"k\\": \\"the plan\\"} end')).toEqual(['5" box. Say {\\"k\\": \\"the plan\\"}']);
  });

  test("template slots in braces, brackets and angle brackets, on one line", () => {
    expect(spans("fill {user_message} and [TONE] and <name> now")).toEqual(["{user_message}", "[TONE]", "<name>"]);
    expect(spans("e [the] f")).toEqual(["[the]"]);
    expect(spans("a {b\nc} d")).toEqual([]);
  });
});

describe("numbers, dates, negations and constraints", () => {
  test("a number with its qualifier, range and unit", () => {
    const cases: [string, string][] = [
      ["in under 200 words", "under 200 words"],
      ["write 3.5 pages", "3.5 pages"],
      ["at least 10 items", "at least 10 items"],
      ["from 3 to 5 days", "from 3 to 5 days"],
      ["about 20% of it", "about 20%"],
      ["costs $1,200.50 now", "$1,200.50"],
      ["between 2 and 4 hours", "between 2 and 4 hours"],
      ["up to 3 sentences", "up to 3 sentences"],
      // The two-word unit before its first word: "5 bullet" alone would leave "points" to be pruned.
      ["in 5 bullet points please", "5 bullet points"],
      ["at 10:30 am", "10:30 am"],
      ["2x faster", "2x"],
      ["page 12 of it", "12"],
      ["three hundred and twenty-five items", "three hundred and twenty-five items"],
    ];
    for (const [text, span] of cases) expect(spans(text)).toEqual([span]);
  });

  test("month and day names, an abbreviation with its period", () => {
    expect(spans("the call is on Tuesday, March 5 at noon")).toEqual(["Tuesday", "March 5"]);
    expect(spans("due Sept. 3 or Oct 4")).toEqual(["Sept. 3", "Oct 4"]);
    expect(spans("a mayday call")).toEqual([]);
  });

  test("a negation with its auxiliary and at most two words after it, up to punctuation", () => {
    expect(spans("I don't want the long version of it")).toEqual(["don't want the"]);
    expect(spans("do not use the global state, please")).toEqual(["do not use the"]);
    expect(spans("you cannot skip the step")).toEqual(["cannot skip the"]);
    expect(spans("WON’T do it ever again")).toEqual(["WON’T do it"]);
    expect(spans("it was not. ok")).toEqual(["was not"]);
  });

  test("a constraint with at most two words after it", () => {
    expect(spans("the answer must be in the table")).toEqual(["must be in"]);
    expect(spans("make sure to add the tests")).toEqual(["make sure to add"]);
    expect(spans("you always win")).toEqual(["always win"]);
  });
});

describe("names and identifiers", () => {
  test("a run of capitals standing alone is an acronym", () => {
    expect(spans("the NASA and FBI team")).toEqual(["NASA", "FBI"]);
    expect(spans("a Q&A session")).toEqual(["Q&A"]);
    expect(spans("the AB. test")).toEqual(["AB"]);
  });

  test("identifiers: camelCase, snake_case, digits, dotted names, sigils", () => {
    expect(spans("rename userId and user_id in config.yaml for @joe #tag $var and word2vec and my-file.v2 ok")).toEqual([
      "userId",
      "user_id",
      "config.yaml",
      "@joe #tag $var",
      "word2vec",
      "my-file.v2",
    ]);
    expect(spans("a.b. c")).toEqual(["a.b"]);
  });

  test("a capitalised word inside a sentence is a name; at a sentence start only when it is no English word", () => {
    expect(spans("the plan with Acme Corp is due")).toEqual(["Acme Corp"]);
    expect(spans("Then the plan goes on")).toEqual([]);
    expect(spans("Ida went home")).toEqual(["Ida"]);
    expect(spans("the plan. Zebra crossing here")).toEqual(["Zebra"]);
    expect(spans("we met Émile there")).toEqual(["Émile"]);
  });

  test("a name without the marks after it; I, I'm and a thank-you are no names", () => {
    expect(spans("the Smith- plan")).toEqual(["Smith"]);
    expect(spans("see O’Neill’s work")).toEqual(["O’Neill’s"]);
    expect(spans("I'm sure I'll go")).toEqual([]);
    expect(spans("Thanks for it. Cheers, then")).toEqual([]);
  });

  test("the assistant's name in an opening greeting is not protected; elsewhere it is", () => {
    for (const text of ["Hello ChatGPT, write the plan", "Hi Claude write the plan", "Hello GPT-4o, the plan", "Dear assistant, the plan"])
      expect(spans(text)).toEqual([]);
    expect(spans("I said hello ChatGPT to it")).toEqual(["ChatGPT"]);
  });
});

describe("structure and merging", () => {
  test("list markers, headings and quote markers at a line start", () => {
    expect(spans("- item\n* item\n• item\n12. item\n3) item\nb) item\n## Heading")).toEqual(["- ", "* ", "• ", "12. ", "3) ", "b) ", "## Heading"]);
  });

  test("opensWithMarker: a marker followed by a blank or the end", () => {
    for (const text of ["- x", "12. x", "b) x", "### x", "> x", "  * x", "-"]) expect(opensWithMarker(text)).toBe(true);
    for (const text of ["-x", "1234. x", "####### x", "x - y", "ab) x"]) expect(opensWithMarker(text)).toBe(false);
  });

  test("content inside a social sentence is not guarded, the same content outside one is", () => {
    expect(spans("I hope you're doing well this week. Do not skip Paris.")).toEqual(["Do not skip Paris"]);
    expect(spans("Thanks so much for your help on Monday! Use Paris not Rome.")).toEqual(["Monday", "Paris not Rome"]);
  });

  test("spans that overlap, touch or stand a blank apart merge; any other character keeps them apart", () => {
    expect(spans("under 200 words\tand 3 pages")).toEqual(["under 200 words", "3 pages"]);
    expect(spans("the 5 kg, 6 kg plan")).toEqual(["5 kg", "6 kg"]);
    expect(spans("use X instead of the Y one")).toEqual(["X instead of the Y one"]);
    const text = "see NASA  FBI and `x`NASA";
    expect(protectedSpans(text)).toEqual([
      { start: 4, end: 13 },
      { start: 18, end: 25 },
    ]);
  });

  test("merging, which grows spans in place, leaves the data spans of the text read last as they were", () => {
    // dataSpans keeps the last text's spans for the quality score's read of the same prompt.
    const text = "Proofread this:\nI has a apple.\n\nAnd this: We is here.";
    const first = structuredClone(dataSpans(text));
    protectedSpans(text);
    for (const span of dataSpans(text)) span.end = 0;
    expect(dataSpans(text)).toEqual(first);
    expect(first.length).toBeGreaterThan(1);
  });
});

/** Cases each detector's pattern is held to, found by mutation testing (`npm run mutation compression-guards-spans`). */
describe("edges of the detectors", () => {
  test("a tilde fence indented by blanks opens and closes as one", () => {
    expect(spans("x\n  ~~~\ncode\n  ~~~\nafter words")).toEqual(["  ~~~\ncode\n  ~~~"]);
  });

  test("indented code: at the text's start, a line of one character, a tab, four blanks or more, lines that go on", () => {
    const cases: [string, string[]][] = [
      ["    code here\nwords", ["    code here"]],
      ["text\nmore\n    after it\nwords", []],
      ["text\n\n    x\nwords", ["    x"]],
      ["text\n\n\t  x y\nwords", ["\t  x y"]],
      ["text\n\n    code here\n  plain words\nmore words", ["    code here"]],
      ["text\n\n    x y\nwords", ["    x y"]],
      ["text\n\n    ab- x\nwords", ["    ab- x"]],
      ["text\n\n    12x y\nwords", ["    12x y"]],
      ["text\n\n    -x code\nwords", ["    -x code"]],
      // List items are no code: the marker alone is protected, as structure.
      ["text\n\n    12. item\nwords", ["    12. "]],
      ["text\n\n      - item\nwords", ["      - "]],
    ];
    for (const [text, expected] of cases) expect([text, spans(text)]).toEqual([text, expected]);
  });

  test("an email's whole local part, a path's two dots, escaped quotations with escapes inside", () => {
    expect(spans("mail joe@ex.co.uk now")).toEqual(["joe@ex.co.uk"]);
    expect(spans("open ../x/y now")).toEqual(["../x/y"]);
    expect(spans('Say \\"the plan is good\\" now')).toEqual(['\\"the plan is good\\"']);
    expect(spans('Say \\"a\\tb c\\" now')).toEqual(['\\"a\\tb c\\"']);
  });

  test("a month's abbreviation without its period, at a sentence start where the word is also English", () => {
    expect(spans("Mar 3 is due")).toEqual(["Mar 3"]);
  });

  test("identifiers of every length and number of parts; twice and the other number words open numbers", () => {
    expect(spans("rename userIdx now")).toEqual(["userIdx"]);
    expect(spans("set max_line_len now")).toEqual(["max_line_len"]);
    expect(spans("see a.b.c now")).toEqual(["a.b.c"]);
    expect(spans("do it twice a day")).toEqual(["twice"]);
  });

  test("an acronym is protected at a sentence start, where its word is English; not after a letter of any script", () => {
    expect(spans("IT is down.")).toEqual(["IT"]);
    expect(spans("the éNASA thing")).toEqual([]);
    expect(spans("NASA\tFBI")).toEqual(["NASA\tFBI"]);
  });

  test("names: I alone is none; a capital after a letter of any script opens none; a dash is no letter", () => {
    expect(spans("so I go")).toEqual([]);
    expect(spans("the caféAcme shop")).toEqual([]);
    expect(spans("we saw—Paris there")).toEqual(["Paris"]);
  });

  test("a sentence starts after blanks at the text's start or after a full stop, not after a word", () => {
    expect(spans(" Then the plan goes on")).toEqual([]);
    expect(spans("the plan. Then it goes")).toEqual([]);
    expect(spans("x Then it goes")).toEqual(["Then"]);
  });

  test("laughter at a sentence start is no name; a word that only begins like it is", () => {
    for (const text of ["Haha that is good", "Hehehe that is good", "Lolll that is good"]) expect(spans(text)).toEqual([]);
    expect(spans("Lolcats are fun")).toEqual(["Lolcats"]);
  });

  test("the greeting's addressee: after blanks, a comma, GPT with or without a version; only at the start", () => {
    for (const text of ["  Hello ChatGPT, write it", "Hello, ChatGPT write it", "Hello GPT write it", "Hello GPT4o write it", "Hello GPT-4.5-turbo, write it"])
      expect([text, spans(text)]).toEqual([text, []]);
    expect(spans("Write 5 lines, then hello Claude")).toEqual(["5 lines", "Claude"]);
  });

  test("a span before a social sentence is guarded; a quotation inside one is", () => {
    expect(spans("Do not skip Paris. I hope you are well.")).toEqual(["Do not skip Paris"]);
    expect(spans('Thanks for reading "the plan"!')).toEqual(['"the plan"']);
  });
});
