import { describe, expect, test } from "bun:test";
import { Packr } from "msgpackr";
import { contentStem, extractFacets, packFacets, stem, unpackFacets } from "../../src/pipeline/cache/facets";
import { NEGATIONS, NUMBER_SCALES, NUMBER_WORDS, OPERATOR_WORDS, ORDINAL_WORDS } from "../../src/pipeline/cache/lexicon";
import { compareFacets } from "../../src/pipeline/cache/verify";

/**
 * The facets the cache's verifier compares, read from one prompt at a time with their exact values
 * (issue 33: mutation testing found each of these readings free to break while test/cache/verify.test.ts,
 * which compares pairs, still passed). Each table names the reading it holds.
 */
const slots = (prompt: string) => extractFacets(prompt).slots.map((s) => `${s.key}${s.rel ? `/${s.rel}` : ""}@${s.rank}`);

describe("roles", () => {
  test("every form of a person reads as that person", () => {
    const persons = [
      ["i", "me", "my", "mine", "myself"],
      ["you", "your", "yours", "yourself", "yourselves"],
      ["we", "us", "our", "ours", "ourselves"],
      ["he", "him", "his", "himself"],
      ["she", "her", "hers", "herself"],
      ["it", "its", "itself"],
      ["they", "them", "their", "theirs", "themselves"],
    ];
    for (const forms of persons)
      for (const form of forms) expect([form, extractFacets(`Ask about ${form} today`).roles]).toEqual([form, new Map([["person", [forms[0]!]]])]);
  });

  test("modals read as must or can; question words as themselves, whom as who; a role's groups sorted", () => {
    // An auxiliary opening a sentence also makes it a yes-or-no question ("Must I go?"); "ought" is no auxiliary there.
    const YES_NO: [string, string[]] = ["mood", ["yes/no"]];
    const cases: [string, [string, string[]][]][] = [
      ["Must go", [["modal", ["must"]], YES_NO]],
      ["Should go", [["modal", ["must"]], YES_NO]],
      ["Ought go", [["modal", ["must"]]]],
      ["Shall go", [["modal", ["must"]], YES_NO]],
      ["Can go", [["modal", ["can"]], YES_NO]],
      ["Could go", [["modal", ["can"]], YES_NO]],
      ["May go", [["modal", ["can"]], YES_NO]],
      ["Might go", [["modal", ["can"]], YES_NO]],
      ["Whom go", [["wh", ["who"]]]],
      ["Why, how, when, where, who, whose and which go", [["wh", ["how", "when", "where", "which", "who", "whose", "why"]]]],
      ["Should or can go", [["modal", ["can", "must"]], YES_NO]],
    ];
    for (const [prompt, roles] of cases) expect([prompt, extractFacets(prompt).roles]).toEqual([prompt, new Map(roles)]);
  });
});

describe("questions of quantity and the language Go", () => {
  test("'how' before a word of quantity asks that quantity, its own question word", () => {
    for (const w of "much many long often far old big large small fast high tall deep early late soon".split(" "))
      expect([w, extractFacets(`How ${w} is the box`).roles.get("wh")]).toEqual([w, [`how ${w}`]]);
    expect(extractFacets("How is the box").roles.get("wh")).toEqual(["how"]);
  });

  test("a lower-case 'go' is the language beside a code word, not beside a word of motion", () => {
    for (const m of ["to", "into", "in", "with"]) expect([m, extractFacets(`Then go ${m} it`).languages]).toEqual([m, new Set()]);
    for (const prompt of ["Then go using it", "Write go code"]) expect(extractFacets(prompt).languages).toEqual(new Set(["go"]));
  });
});

describe("words", () => {
  test("a word without the dots, hyphens, @ and 's that end it", () => {
    expect(extractFacets("Ann's car. Use C++. Do it well- Bob@ home").words).toEqual(new Set(["ann", "car", "use", "c++", "do", "it", "well", "bob", "home"]));
  });
});

describe("tokens", () => {
  test("a line break ends what a relation word governs; a word is never a line break", () => {
    expect(slots("Go from\nParis")).toEqual(["c:pari@0"]);
    expect(extractFacets("Cats\ndogs").words).toEqual(new Set(["cats", "dogs"]));
  });

  test("an apostrophe-s inside a name is part of it; a run of trailing marks goes", () => {
    expect(extractFacets("Draw a cat's-eye now").words).toEqual(new Set(["draw", "a", "cat's-eye", "cat's", "eye", "now"]));
    expect(extractFacets("Do it well-- now").words).toEqual(new Set(["do", "it", "well", "now"]));
  });

  test("a word holding digits is a word (its digits counted as a number), not a number", () => {
    expect(extractFacets("Build for x86 now")).toMatchObject({ numbers: ["86"], literals: ["x86"] });
  });

  test("a literal leaves a gap where it stood, and only its outer quotes go", () => {
    expect(extractFacets("Use`x`now").words).toEqual(new Set(["use", "now"]));
    expect(extractFacets('Run `print("hi")` now').literals).toEqual(['print("hi")']);
  });

  test("each pole of a direction is counted", () => {
    expect(extractFacets("increase then decrease").directions).toEqual(new Map([["increase/decrease", "1:1"]]));
  });
});

describe("literals", () => {
  test("code, quoted code and inline code, without their quotes or the blanks that end their lines", () => {
    expect(extractFacets("Fix this:\n```\nx = 1   \ny = 2\n```").literals).toEqual(["\nx = 1\ny = 2\n"]);
    for (const quoted of ['"x = 1;"', "“x = 1;”", "'x = 1;'"]) expect(extractFacets(`Say ${quoted} now`).literals).toEqual(["x = 1;"]);
    expect(extractFacets("Use `a  b` here").literals).toEqual(["a  b"]);
  });

  test("two-letter words that are not grammar, units or numbers are literals, and decide a pair", () => {
    expect(extractFacets("Set the CSS margin to 2em.").literals).toEqual(["em"]);
    expect(extractFacets("Write a bash condition checking if $a -eq $b.").literals).toEqual(["eq"]);
    // Grammar, a unit and an operator word are no literals.
    expect(extractFacets("Is it ok to go up 5 km by car or on foot?").literals).toEqual([]);
    const same = (a: string, b: string) => compareFacets(extractFacets(a), extractFacets(b)).equivalent;
    expect(same("Set the CSS margin to 2em.", "Set the CSS margin to 2px.")).toBe(false);
    expect(same("Write a bash condition checking if $a -eq $b.", "Write a bash condition checking if $a -ne $b.")).toBe(false);
    expect(same("Set the CSS margin to 2em.", "Please set the CSS margin to 2em")).toBe(true);
  });
});

describe("factorials", () => {
  test("marks right after a number are an operator, counted; elsewhere an exclamation mark says nothing", () => {
    const same = (a: string, b: string) => compareFacets(extractFacets(a), extractFacets(b)).equivalent;
    expect(extractFacets("What is the value of 5!! ?").symbols).toEqual(["!!"]);
    expect(same("What is the value of 5! ?", "What is the value of 5!! ?")).toBe(false);
    expect(same("What is the value of 5!?", "what is the value of 5!")).toBe(true);
    expect(same("Explain the rules of chess!", "Explain the rules of chess")).toBe(true);
  });
});

describe("numbers", () => {
  test("number words spell one number, scales and all; a trailing 'and' or '-' is not part of it", () => {
    const cases: [string, string[]][] = [
      ["two thousand three hundred and five apples", ["2305"]],
      ["three hundred apples", ["300"]],
      ["twenty-five apples", ["25"]],
      ["one million two apples", ["1000002"]],
      ["five and apples", ["5"]],
      // A scale word alone is a number too: "a billion" is not "a million" (bench/data/cache-probe10.json).
      ["hundred apples", ["x100"]],
      ["count to a billion", ["x1000000000"]],
      ["millions of users", ["x1000000"]],
      ["two hundred thousand apples", ["200000"]],
      ["twenty - five apples", ["25"]],
      // Side by side, two numbers: "and" joins only after a scale word, a unit only a tens word before it.
      ["two and three apples", ["2", "3"]],
      ["two three apples", ["2", "3"]],
      ["one hundred twenty five apples", ["125"]],
    ];
    for (const [prompt, numbers] of cases) expect([prompt, extractFacets(prompt).numbers]).toEqual([prompt, numbers]);
  });

  test("'one' after a determiner or before 'of' or a modal is the pronoun, not the number 1", () => {
    const before = "which this that the every each any no some another other little right wrong new old same first last next".split(" ");
    for (const w of before) expect([w, extractFacets(`Take ${w} one home`).numbers.includes("1")]).toEqual([w, false]);
    const after = "of would could should can must might may ought needs has".split(" ");
    for (const w of after) expect([w, extractFacets(`Then one ${w} go home`).numbers.includes("1")]).toEqual([w, false]);
    expect(extractFacets("Take one cat home").numbers).toEqual(["1"]);
    expect(extractFacets("How do I stage only one changed file in git?").numbers).toEqual(["1"]);
    expect(
      compareFacets(extractFacets("How do I stage all changed files in git?"), extractFacets("How do I stage only one changed file in git?")),
    ).toMatchObject({ equivalent: false, kind: "number" });
  });

  test("'times' and 'x' between numbers multiply; elsewhere they do not", () => {
    for (const prompt of ["What is 3 times 4?", "What is 3 x 4?", "three x 4"])
      expect(extractFacets(prompt)).toMatchObject({ operators: ["*"], symbols: ["*"] });
    for (const prompt of ["three times a day", "Is x times y big?", "Do it 3 times"])
      expect(extractFacets(prompt)).toMatchObject({ operators: [], symbols: [] });
  });

  test("brackets alone are an aside, not math; with an operator they group it", () => {
    expect(extractFacets("(optional) do it").symbols).toEqual([]);
    expect(extractFacets("Compute (a + b) / 2").symbols).toEqual(["(", "+", ")", "/"]);
  });

  test("increment and decrement are operators, before or after their name", () => {
    const refused = [
      ["What does i++ do in C?", "What does i-- do in C?"],
      ["What does x++ return?", "What does ++x return?"],
      ["Why is --n faster here?", "Why is ++n faster here?"],
    ];
    for (const [a, b] of refused) expect([a, compareFacets(extractFacets(a!), extractFacets(b!)).equivalent]).toEqual([a, false]);
    const accepted = [
      ["explain x++ in java", "Explain x++ in Java, please."],
      ["what is c++ used for", "What is C++ used for?"],
    ];
    for (const [a, b] of accepted) expect([a, compareFacets(extractFacets(a!), extractFacets(b!)).equivalent]).toEqual([a, true]);
  });

  test("a literal between operators is named by its place in the sorted literals, kept once", () => {
    const big = `\`${"x".repeat(2000)}\``;
    const facets = extractFacets(`Is ${big} - \`b\` the same as \`b\` - ${big}?`);
    expect(facets.symbols.join(" ").length).toBeLessThan(100);
    expect(facets.symbols).toEqual(["lit:2", "-", "lit:0", "lit:0", "-", "lit:2"]);
    // The same literals around the operator in the other order are another request.
    const a = extractFacets("Compute `foo(x)` - `bar(y)`");
    const b = extractFacets("Compute `bar(y)` - `foo(x)`");
    expect(a.literals).toEqual(b.literals);
    expect(compareFacets(a, b)).toMatchObject({ equivalent: false });
  });
});

describe("negations", () => {
  test("the word each negation applies to, sorted", () => {
    expect(extractFacets("Never stop. Don't go.").negated).toEqual(["go", "stop"]);
    expect(extractFacets("It isn't who has it, is it who doesn't need to have it?").negated).toEqual(["have", "who"]);
  });
});

describe("slots", () => {
  test("a one-letter name is a variable; 'a', 'I' and a sentence's opening 'A' are words", () => {
    expect(slots("Solve for x")).toEqual(["c:solve@0", "v:x/for@1"]);
    expect(slots("Solve for é")).toEqual(["c:solve@0", "v:é/for@1"]);
    expect(slots("Take a cab")).toEqual(["c:take@0", "c:cab@1"]);
    expect(slots("A cat sat")).toEqual(["c:cat@0", "c:sat@1"]);
    expect(slots("x is big")).toEqual(["v:x@0", "c:big@1"]);
    expect(extractFacets("Can I go?").slots).toEqual([]);
  });

  test("the members of a list after a verb that takes one share a rank, a determiner allowed before each", () => {
    for (const d of ["", "the ", "a ", "an ", "my ", "your ", "our ", "their ", "his ", "her ", "its ", "this ", "that ", "these ", "those ", "some "])
      expect([d, slots(`Compare apples and ${d}pears`)]).toEqual([d, ["c:compar@0", "c:apple@1", "c:pear@1"]]);
    expect(slots("Compare apples, pears and plums")).toEqual(["c:compar@0", "c:apple@1", "c:pear@1", "c:plum@1"]);
  });

  test("numbers and possessives are never reordered as list members", () => {
    expect(slots("Compare 3 and 5")).toEqual(["c:compar@0", "n:3@1", "n:5@2"]);
    expect(slots("Compare Ann's and Bob's")).toEqual(["c:compar@0", "c:ann@1", "c:bob@2"]);
  });

  test("a relation word governs the next word, a pronoun or adverb included; 'to' before a bare word is weak", () => {
    expect(slots("Ask for them")).toEqual(["c:ask@0", "x:them/for@1"]);
    expect(slots("take it from there")).toEqual(["c:take@0", "x:there/from@1"]);
    expect(slots("how to reset it")).toEqual(["c:reset/to?@0"]);
    expect(slots("go to the park")).toEqual(["c:park/to@0"]);
    expect(slots("Count to 5")).toEqual(["c:count@0", "n:5/to@1"]);
    expect(slots("Fly to Paris")).toEqual(["c:fly@0", "c:pari/to@1"]);
    expect(slots("Where to")).toEqual([]);
    expect(slots("Pick from - the list")).toEqual(["c:pick@0", "c:list/from@1"]);
    expect(slots("Buy two apples")).toEqual(["c:buy@0", "n:2@1", "c:apple@2"]);
    expect(slots("Ann's brother")).toEqual(slots("the brother of Ann"));
  });
});

describe("stem", () => {
  test("British spellings fold into American ones only in words of six letters or more", () => {
    expect(["hours", "tours", "rise", "colours", "programmes", "organised"].map(stem)).toEqual(["hour", "tour", "rise", "color", "program", "organiz"]);
  });
});

describe("packed facets", () => {
  test("read back equal to the extracted ones, Maps as Maps and Sets as Sets, also when packed by another packer (another thread's)", () => {
    const prompts = [
      "How do I convert 5 km to miles in Python?",
      "Spain beat Italy 2-0: who scored, and why didn't Italy's defence hold?",
      "Translate 'good morning' from German into French and format it as JSON.",
      "Is `(a + b) / 2` the same as a + b / 2 when a != b?",
    ];
    for (const prompt of prompts) {
      const packed = packFacets(prompt);
      expect(packed.prompt).toBe(prompt);
      const back = unpackFacets(packed.bytes);
      expect(back).toEqual(extractFacets(prompt));
      expect(back.roles).toBeInstanceOf(Map);
      expect(back.words).toBeInstanceOf(Set);
      // The worker pool's packer (workers/pool.ts) carries the bytes across threads inside its own message.
      const pool = new Packr({ moreTypes: true });
      const crossed = pool.unpack(new Uint8Array(pool.pack({ facets: packed }))) as { facets: typeof packed };
      expect(unpackFacets(crossed.facets.bytes)).toEqual(extractFacets(prompt));
    }
  });
});

describe("content words", () => {
  test("leave out every word another facet compares (numbers, scales, ordinals, operators, negations), and only those", () => {
    const facetWords = [...[NUMBER_WORDS, NUMBER_SCALES, ORDINAL_WORDS, OPERATOR_WORDS].flatMap((t) => Object.keys(t)), ...NEGATIONS];
    for (const word of facetWords.filter((w) => /^\p{Ll}{3,}$/u.test(w))) expect(contentStem(word)).toBeUndefined();
    // Object.prototype's names are words like any other ("constructor" once read as a number).
    for (const word of ["reverse", "linked", "constructor", "tostring", "hasownproperty", "proto"]) expect(contentStem(word)).toBe(stem(word));
  });
});
