import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { dedup } from "../../src/pipeline/compress/rules/dedup";
import { emphasis } from "../../src/pipeline/compress/rules/emphasis";
import { filler } from "../../src/pipeline/compress/rules/filler";
import { intent } from "../../src/pipeline/compress/rules/intent";
import { json } from "../../src/pipeline/compress/rules/json";
import { pleasantries } from "../../src/pipeline/compress/rules/pleasantries";
import { preamble } from "../../src/pipeline/compress/rules/preamble";
import { prune } from "../../src/pipeline/compress/rules/prune";
import { repeat } from "../../src/pipeline/compress/rules/repeat";
import { whitespace } from "../../src/pipeline/compress/rules/whitespace";
import type { RuleContext } from "../../src/pipeline/compress/types";
import { applyRule } from "./apply-rule";
import { compressMessages } from "../../src/pipeline/compress";

describe("whitespace", () => {
  test("collapses runs of spaces, trailing spaces and extra blank lines, keeps indentation", () => {
    const out = applyRule(whitespace, "  Write   a poem.   \n\n\n\n  - item one\r\nEnd  ");
    expect(out.text).toBe("Write a poem.\n\n  - item one\nEnd");
    expect(out.saved).toBeGreaterThan(0);
  });
  test("leaves whitespace inside code alone", () => {
    const code = "```\nif x:\n    y  =  1\n\n\n\nz\n```";
    expect(applyRule(whitespace, `Fix this:   \n${code}`).text).toBe(`Fix this:\n${code}`);
  });
  test("the quick tests that skip a step never skip one that would change the text", () => {
    // The rule's patterns applied one after another, with no test in front of them.
    const patternsAlone = (t: string) =>
      t
        .replace(/\r\n?/g, "\n")
        .replace(/[ \t]+$/gm, "")
        .replace(/(?<=\S)[ \t]{2,}(?=\S)/g, " ")
        .replace(/\n{3,}/g, "\n\n")
        .replace(/^\s+(?=\S)|(?<=\S)\s+$/g, "");
    const unit = fc.constantFrom("a", " ", "  ", "\t", "\n", "\r", "\r\n", "\u2028", "\u2029", "\u00a0");
    // The rule reads nothing of its context but the token count of what it changed.
    const countingOnly = { tokens: (fragment: string) => fragment.length } as Partial<RuleContext> as RuleContext;
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 12 }), (t) => {
        expect(whitespace.apply(t, countingOnly).text).toBe(patternsAlone(t));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("pleasantries", () => {
  test("after a request for text to be written, or a role to play, social sentences are its content and stay", () => {
    for (const text of [
      "Write a message to the parents of my class. Hope everyone's well after the storm.",
      "Draft a text to my boss. Sorry for the short notice, but I need Friday off.",
      "Write a thank-you card. Thank you for everything.",
      "Write the end of a podcast episode. Thanks for listening, and have a great week!",
      "Simulate a polite butler. Sorry to bother you, sir. Tea is served.",
      "Write a Python script that prints lol. It should print lol ten times.",
    ])
      expect(applyRule(pleasantries, text).text).toBe(text);
  });
  test("after the request only closings and apologies for the asking go: other social words there are part of it", () => {
    for (const text of [
      "I need a dessert recipe. A quick one.",
      "The output should be sorted. This is random.",
      "Describe the movie in one sentence. It's a weird one.",
    ])
      expect(applyRule(pleasantries, text).text).toBe(text);
    expect(applyRule(pleasantries, "Explain sorting. I hope this isn't a silly question. Thanks!").text).toBe("Explain sorting.");
  });
  test("a social sentence a later sentence points back at, a statement that only sounds played down, and laughter after a colon stay", () => {
    for (const text of [
      "Hope you're crushing it.\nUse that as the subject line and write a motivational email to the sales team.",
      "This is random. Is it uniformly distributed?",
      "Explain: lmao",
    ])
      expect(applyRule(pleasantries, text).text).toBe(text);
    expect(applyRule(pleasantries, "Hi! This is random but would you name three rivers?").text).toBe("Would you name three rivers?");
  });
  test("laughter talked about stays: defined, explained as an acronym, said by someone", () => {
    for (const text of [
      "Define lmao in one line.",
      "Explain the acronym rofl.",
      "Santa says hohoho. What does the Grinch say? hehehe",
      "Run xdd on the disk, then check it.",
      "Rank lol, lmao, rofl, and 'haha' by how funny each sounds.",
      "Which is ruder in a work chat: lol, or lmao?",
    ])
      expect(applyRule(pleasantries, text).text).toBe(text);
    expect(applyRule(pleasantries, "This one is so funny lol, can you write a joke about cats?").text).not.toContain("lol");
  });
  test("runs of separators and abutting laughter are read in linear time", () => {
    const started = performance.now();
    for (const text of [
      `Thanks ${"-".repeat(40)} Original Message ${"-".repeat(40)}\nFrom: Bob\nSummarise it.`,
      `${"haha".repeat(60)} zzz`,
      `${"sorry, ".repeat(60)}zzz`,
      `hi ${"!".repeat(60)} zzz`,
    ])
      applyRule(pleasantries, text);
    // Exponential backtracking took 14-44 s on such texts; linear reading takes milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });
  test("drops greeting, well-wishing, please and thanks", () => {
    const out = applyRule(pleasantries, "Hello ChatGPT, I hope you are doing well. Please summarize this article. Thanks in advance!");
    expect(out.text).toBe("Summarize this article.");
    expect(out.saved).toBeGreaterThanOrEqual(10);
  });
  test("a message that is only a greeting or only thanks is kept", () => {
    expect(applyRule(pleasantries, "Hello!").text).toBe("Hello!");
    expect(applyRule(pleasantries, "Thanks!").text).toBe("Thanks!");
  });
  test("social sentences and clauses go whole anywhere in a message, a negation or date inside them included", () => {
    const text =
      "Good morning! I hope you're doing well today. Sorry if this is a dumb question, but how do I reverse a list? I hope this isn't a silly question. Thank you so much in advance, really appreciate it! haha";
    const out = compressMessages([{ role: "user", content: text }], { aggressiveness: 0.5, skipRules: [] }).messages[0]!.content;
    expect(out).toBe("How do I reverse a list?");
  });
  test("a request that only mentions thanks or hope is no social sentence", () => {
    for (const text of ["Explain why I hope this works. Thanks!"]) {
      expect(applyRule(pleasantries, text).text).toBe(text.replace(" Thanks!", ""));
    }
  });
  test("the framings people use go whole: a greeting with an emoticon, asking how one is, apologies for bothering, sign-offs, praise (issue 25)", () => {
    const cases: [string, string][] = [
      ["Hello :) Happy Monday! Summarize this article.", "Summarize this article."],
      ["Hi again! How's it going? Summarize this article.", "Summarize this article."],
      ["Hey, I hope I'm not bothering you. Summarize this article.", "Summarize this article."],
      ["Hello, sorry to bother you again. Summarize this article.", "Summarize this article."],
      ["Morning! Hope you slept well. Summarize this article.", "Summarize this article."],
      ["Hi, forgive me if this has been asked before. Summarize this article.", "Summarize this article."],
      ["Summarize this article. I'd really appreciate any help.", "Summarize this article."],
      ["Summarize this article. You're amazing, thank you!", "Summarize this article."],
      ["Summarize this article. Thanks so much, I owe you one!", "Summarize this article."],
      ["Summarize this article. Take care!", "Summarize this article."],
      ["Summarize this article. I'm grateful for any help you can give.", "Summarize this article."],
      ["Hiii, how's your week been? Summarize this article.", "Summarize this article."],
      ["Hey, it's me again! Summarize this article.", "Summarize this article."],
      ["Hi! Hope things are going well on your side. Summarize this article.", "Summarize this article."],
      ["Hi :) Could you summarize this article?", "Could you summarize this article?"],
      ["Summarize this article. Thank you!! :)", "Summarize this article."],
      ["Summarize this article. Cheers, mate!", "Summarize this article."],
      ["Summarize this article. TIA!", "Summarize this article."],
      ["Summarize this article. Let me know, thanks!", "Summarize this article."],
      ["Summarize this article. Thanks!!! 🙏", "Summarize this article."],
    ];
    for (const [text, expected] of cases) expect(applyRule(pleasantries, text).text).toBe(expected);
  });
  test("words that greet or sign off only before a full stop ('Morning, noon and night', 'Take care, ...') and emoji alone are content", () => {
    for (const text of [
      "Morning, noon and night the bells ring. Write a poem about it.",
      "Take care, the API key must stay secret. Write the config loader.",
      "Let me know, in one line, what this error means.",
      // Emoji after no social sentence may be what the task is about.
      "Guess the name of the movie from the emojis.\n\n🧙‍♂️🚪📚🦅⚡",
    ]) {
      expect(applyRule(pleasantries, text).text).toBe(text);
    }
  });
  // A new author's corpus (chatty-5, issue 25) showed four classes the rules missed; these cases are our own
  // sentences of each class, not its strings.
  test("well-wishing in the words people type goes whole, after a greeting and an emoji too", () => {
    for (const text of [
      "Hope you're smashing it this week. Summarize this article.",
      "hope u r ok!! Summarize this article.",
      "Hope all's fine on your side. Summarize this article.",
      "Hope everything's good with you. Summarize this article.",
      "I trust you are keeping well. Summarize this article.",
      "Hope you're enjoying the sunshine 😎 Summarize this article.",
      "Hey! 🌞 hope you're keeping well. Summarize this article.",
      "Hiya 👋 hope life's treating you well! Summarize this article.",
    ]) {
      expect(applyRule(pleasantries, text).text).toBe("Summarize this article.");
    }
  });
  test("well-wishing that is the content, or part of a statement, stays", () => {
    for (const text of ["Hope you're doing well is a common opener. Explain why.", "Write a card saying I hope you're feeling better soon."]) {
      expect(applyRule(pleasantries, text).text).toBe(text);
    }
  });
  test("apologies and a question played down go whole, as a sentence or as a clause joined by 'but'", () => {
    const cases: [string, string][] = [
      ["Sorry if this is a really dumb question but how do magnets work?", "How do magnets work?"],
      ["Probably a silly question haha but what is a mortgage?", "What is a mortgage?"],
      ["Kinda silly q but what is a mortgage?", "What is a mortgage?"],
      ["sorry to pester u!! What is a mortgage?", "What is a mortgage?"],
      ["I must apologise for asking something like this, I'm not sure where else to turn. What is a mortgage?", "What is a mortgage?"],
      ["Apologies for the rush. Summarize this article.", "Summarize this article."],
      ["sorry quick one, what is a mortgage?", "What is a mortgage?"],
      ["This is random but could you write a poem about socks?", "Could you write a poem about socks?"],
    ];
    for (const [text, expected] of cases) expect(applyRule(pleasantries, text).text).toBe(expected);
  });
  test("an apology or a size that is content stays: handed over, talked about, or a constraint on the answer", () => {
    for (const text of [
      "Write a short apology: sorry for the delay.",
      "Explain why people say sorry to bother you.",
      "Give me a riddle. A simple one.",
      "Write a story. A long one.",
      "Quick, list five fruits.",
      // What is said of a thing, or of how one feels, is no apology for asking.
      "Cut the sugar in this recipe. It's too much.",
      "The output should be sorted. It's random. Why?",
      "My dog died last week. I feel terrible. What should I say to my kids?",
    ]) {
      expect(applyRule(pleasantries, text).text).toBe(text);
    }
  });
  test("laughter inside a sentence that stays goes, the sentence stays", () => {
    expect(applyRule(pleasantries, "My code keeps crashing lol. Explain segfaults.").text).toBe("My code keeps crashing. Explain segfaults.");
    expect(applyRule(pleasantries, "I'm new to this haha 😅 What is a mortgage?").text).toBe("I'm new to this 😅 What is a mortgage?");
  });
  test("laughter that is the word asked about, a name, or in a handed-over text stays", () => {
    for (const text of [
      "What does lol mean?",
      "How do you write haha in Korean?",
      "I play LoL every day. Suggest a schedule.",
      "Translate this:\n\nI'm so tired lol",
    ]) {
      expect(applyRule(pleasantries, text).text).toBe(text);
    }
  });
  test("an emoji inside a sentence ends no social clause: 'Thanks 🙏 for the help with the draft' is a sentence", () => {
    const text = "Thanks 🙏 for the help with the draft, now shorten it.";
    expect(applyRule(pleasantries, text).text).toBe(text);
  });
  // The name under a sign-off is kept (a letter the model writes may be signed with it), and so is the
  // courtesy word: alone, "Jordan" after the request reads as an addressee or a stray word, and "Cheers" or
  // "Best" is what says the name is the writer's (and the register a letter signed with it should keep).
  test("a sign-off with a name is kept whole", () => {
    for (const text of ["Write a poem. Thanks, Jordan", "Write a poem. Best, Maya", "Write a poem. Cheers, Sam x"]) {
      expect(applyRule(pleasantries, text).text).toBe(text);
    }
  });
  test("a sign-off followed by a name is kept: the name may be content", () => {
    const email = "Reply to this email.\nBest regards,\nJohn Smith";
    expect(applyRule(pleasantries, email).text).toBe(email);
  });
});

describe("preamble", () => {
  test("drops announcements and lead-ins; a protected ordinal keeps its case", () => {
    expect(applyRule(preamble, "I have a quick question. So, what is a monad?").text).toBe("What is a monad?");
    expect(applyRule(preamble, 'My first request is "hello"').text).toBe('first request: "hello"');
  });
  test("a message that is only an announcement stays", () => {
    expect(applyRule(preamble, "Can you help me?").text).toBe("Can you help me?");
  });
  test("a run of lead words goes whole, before a script without case too; a lead word followed by nothing else stays (compress-probe16)", () => {
    expect(applyRule(preamble, "ok so 正直に言うと、敬語が難しいです。").text).toBe("正直に言うと、敬語が難しいです。");
    expect(applyRule(preamble, "So, okay, what is a monad?").text).toBe("What is a monad?");
    expect(applyRule(preamble, "ok so what's the capital of Peru").text).toBe("What's the capital of Peru");
    expect(applyRule(preamble, "ok ok ok. Tell me if it's ok to reheat rice.").text).toBe("ok ok ok. Tell me if it's ok to reheat rice.");
  });
});

describe("intent", () => {
  test("turns an indirect request into a command", () => {
    expect(applyRule(intent, "I was wondering if you could possibly help me write a haiku about autumn?").text).toBe("Write a haiku about autumn.");
    expect(applyRule(intent, "I want you to act as a linux terminal.").text).toBe("Act as a linux terminal.");
    expect(applyRule(intent, "Could you please explain how DNS works?").text).toBe("Explain how DNS works.");
    // Every question mark of the request goes (bench/data/chatty-dev-9.json: "... for the opening.? Something fun").
    expect(applyRule(intent, "Can you write an Instagram caption for the opening?? Something fun!").text).toBe(
      "Write an Instagram caption for the opening. Something fun!",
    );
  });
  test("a request after a sentence that ends with an emoji, not a full stop, is a request too (issue 25)", () => {
    expect(applyRule(intent, "My phone is dying 😭 could you list ways to save battery?").text).toBe("My phone is dying 😭 List ways to save battery.");
    expect(applyRule(intent, "We got a new puppy 🐶 Could u suggest names?").text).toBe("We got a new puppy 🐶 Suggest names.");
    expect(applyRule(intent, "Explain what ✔ could you mean here?").text).toBe("Explain what ✔ could you mean here?");
  });
  test("verbs of rewriting with re- name a task as 'rewrite' does", () => {
    expect(applyRule(intent, "Could you reformat this address into one line?").text).toBe("Reformat this address into one line.");
    expect(applyRule(intent, "Can you restructure the plan into three phases?").text).toBe("Restructure the plan into three phases.");
  });
  test("a negated request is not turned into its opposite", () => {
    const text = "I don't want you to write the tests. I do not want you to act as a lawyer.";
    expect(applyRule(intent, text).text).toBe(text);
  });
  test("'I'd like you to' and 'would you mind helping me' are requests; 'would you mind checking' stays, it has no command form as written", () => {
    expect(applyRule(intent, "I'd really like you to draft a message to my team.").text).toBe("Draft a message to my team.");
    expect(applyRule(intent, "Would you mind helping me to plan a trip?").text).toBe("Plan a trip.");
    expect(applyRule(intent, "Would you mind checking my code?").text).toBe("Would you mind checking my code?");
    expect(applyRule(intent, "You will need to provide several examples.").text).toBe("You will need to provide several examples.");
  });
  test("a statement of duty is a command only before a task verb: 'You will receive …' describes the input", () => {
    expect(applyRule(intent, "You should write a haiku about autumn.").text).toBe("Write a haiku about autumn.");
    expect(applyRule(intent, "Your task is to summarize the report below.").text).toBe("Summarize the report below.");
    for (const text of [
      "You will receive a ticket ID. Reply with its status.",
      "You are going to get a list of names.",
      "Your job is to stay polite whatever the customer says.",
      "You should know that the file is large.",
    ]) {
      expect(applyRule(intent, text).text).toBe(text);
    }
  });
  test("a question about ability is not a task", () => {
    expect(applyRule(intent, "Can you see images?").text).toBe("Can you see images?");
  });
  test("more ways of asking: a favour, a chance, a hope, gratitude, a courtesy condition first (issue 25)", () => {
    const cases: [string, string][] = [
      ["Could you do me a favor and write a haiku about autumn?", "Write a haiku about autumn."],
      ["Is there any way you could explain how DNS works?", "Explain how DNS works."],
      ["Any chance you could explain how DNS works?", "Explain how DNS works."],
      ["Do you think you could explain how DNS works?", "Explain how DNS works."],
      ["I was wondering, could you explain how DNS works?", "Explain how DNS works."],
      ["Could I ask you to explain how DNS works?", "Explain how DNS works."],
      ["I wanted to ask if you could explain how DNS works.", "Explain how DNS works."],
      ["I'm hoping you can figure out why the build fails.", "Figure out why the build fails."],
      ["I was hoping you could help me plan a trip.", "Plan a trip."],
      ["I'd be grateful if you could explain how DNS works.", "Explain how DNS works."],
      ["It would be really helpful if you could explain how DNS works.", "Explain how DNS works."],
      ["Can you help me out and write a haiku?", "Write a haiku."],
      ["If you have a minute, could you explain how DNS works?", "Explain how DNS works."],
      ["When you have time, could you explain how DNS works?", "Explain how DNS works."],
      ["If it's not too much trouble, could you explain how DNS works?", "Explain how DNS works."],
      ["Whenever you get a chance, could you explain how DNS works?", "Explain how DNS works."],
      ["Are you able to explain how DNS works?", "Explain how DNS works."],
      ["Would you be willing to explain how DNS works?", "Explain how DNS works."],
      ["I wonder if you could explain how DNS works.", "Explain how DNS works."],
      ["I was wondering if you'd be able to explain how DNS works.", "Explain how DNS works."],
      ["I was thinking maybe you could explain how DNS works.", "Explain how DNS works."],
      ["I'd love your help to plan a trip.", "Plan a trip."],
    ];
    for (const [text, expected] of cases) expect(applyRule(intent, text).text).toBe(expected);
  });
  test("those ways of asking before anything but a task stay questions", () => {
    for (const text of [
      "Do you think you could be wrong about this?",
      "Is there any way you could know my name?",
      "If you have a minute, could you be my friend?",
    ]) {
      expect(applyRule(intent, text).text).toBe(text);
    }
  });
});

describe("filler", () => {
  test("removes empty words and tightens wordy phrases", () => {
    const out = applyRule(filler, "Basically, in order to win, we need speed due to the fact that time is short.", { level: 0.2 });
    expect(out.text).toBe("To win, we need speed because time is short.");
    expect(out.saved).toBeGreaterThan(0);
  });
  test("hedges go only from level 0.5", () => {
    expect(applyRule(filler, "It is really very simple.", { level: 0.3 }).text).toBe("It is really very simple.");
    expect(applyRule(filler, "I really need it.", { level: 0.3 }).text).toBe("I really need it.");
    expect(applyRule(filler, "I really need it.", { level: 0.6 }).text).toBe("I need it.");
  });
  test("an intensifier goes only where it stresses a verb, never where it says how much of a quality", () => {
    const at = (text: string) => applyRule(filler, text, { level: 1 }).text;
    for (const [text, out] of [
      ["I'd really appreciate it.", "I'd appreciate it."],
      ["You should really try it.", "You should try it."],
      ["We quite like it.", "We like it."],
    ])
      expect(at(text!)).toBe(out!);
    for (const text of [
      "It is really useful.",
      "Summarize this really short.",
      "My client is a first-time buyer who's very nervous.",
      "I like my coffee really strong.",
      "I'm really angry at my sister.",
      "Make it very formal.",
      "Thank you very much.",
      "I very much hope so.",
      "I'm really hoping to finish today.",
      "Would very short sentences work better for kids?",
      "Can really small companies afford a 401k plan?",
      "Do really long passwords matter?",
      "The movie is really annoying.",
    ])
      expect(at(text)).toBe(text);
    // Two intensifiers of a quality both stay.
    expect(applyRule(filler, "It is really very simple.", { level: 0.6 }).text).toBe("It is really very simple.");
    expect(applyRule(filler, "Thank you very much for the help.", { level: 0.6 }).text).toBe("Thank you very much for the help.");
  });
  test("what sets the answer stays: 'just'/'simply' as 'only', an intensifier of a degree, an adverb that ends its clause", () => {
    for (const text of [
      "Just the code, no explanation.",
      "Reply with simply one word.",
      "I just moved to Berlin.",
      "Summarize this really short, under 50 words.",
      "Keep it very formal.",
      "Translate it literally.",
      "Answer honestly, then suggest a fix.",
      // An adverb right before a request's verb says how to do it (compress-probe16's review).
      "Honestly rate my poem out of 10.",
      "Literally translate it into French.",
    ])
      expect(applyRule(filler, text, { level: 1 }).text).toBe(text);
    expect(applyRule(filler, "Honestly I'm terrified. How do I cope?", { level: 1 }).text).toBe("I'm terrified. How do I cope?");
    expect(applyRule(filler, "Basically, I really need help and it is actually broken.", { level: 1 }).text).toBe("I need help and it is broken.");
  });
  test("'to be honest' goes where a clause opens with it, and stays where a word before it asks for it (compress-probe16)", () => {
    const at = (text: string) => applyRule(filler, text, { level: 1 }).text;
    for (const [text, out] of [
      ["To be honest with you, how honest should a reference letter be?", "How honest should a reference letter be?"],
      ["To be honest, list the downsides.", "List the downsides."],
      ["I'm tired and to be honest I don't get it.", "I'm tired and I don't get it."],
    ])
      expect(at(text!)).toBe(out!);
    // The comma it leaves before a colon goes too, as the pipeline tidies a message.
    const text = "I want honest feedback, to be honest: does my logo look amateur?";
    expect(compressMessages([{ role: "user", content: text }], { aggressiveness: 1, skipRules: [] }).messages[0]!.content).toBe(
      "I want honest feedback: does my logo look amateur?",
    );
    for (const text of [
      "How can I teach my kids to be honest?",
      "Is it better to be honest or kind?",
      "Write a speech about why leaders need to be honest.",
      "Please try to be honest, even if it hurts.",
      "Do I have to be honest on a dating profile?",
    ])
      expect(at(text)).toBe(text);
  });
  test("what the user feels or is unsure of stays: a feeling without it reads as a fact", () => {
    for (const text of [
      "I feel like a fraud when people thank me.",
      "I feel like I'm a fraud at work.",
      "I feel like it's my fault.",
      "I guess the number is seven.",
      "I think that the bug is in the parser.",
      "I believe that she is right.",
    ])
      expect(applyRule(filler, text, { level: 1 }).text).toBe(text);
  });
  test("wordy phrases with an exact shorter form", () => {
    const text =
      "Prior to the launch, with regard to pricing, a wide variety of users report on a daily basis. The vast majority of tests run at all times in the form of a suite.";
    expect(applyRule(filler, text, { level: 0.2 }).text).toBe(
      "Before the launch, about pricing, various users report daily. Most tests run always as a suite.",
    );
  });
  test("a wordy phrase inside a negation's scope stays", () => {
    expect(applyRule(filler, "We do not check with regard to price.", { level: 1 }).text).toBe("We do not check with regard to price.");
  });
  test('filler inside a negation stays: "don\'t really" is not "don\'t"', () => {
    expect(applyRule(filler, "I don't really like it.", { level: 1 }).text).toBe("I don't really like it.");
  });
});

describe("dedup", () => {
  test("a sentence repeated inside a paragraph is kept once", () => {
    expect(applyRule(dedup, "Answer in one word. Be concise. Answer in one word.").text).toBe("Answer in one word. Be concise. ");
  });
  test("repeated whole lines (refrains, rows) and short sentences stay", () => {
    const song = "Let it be, let it be.\nWhisper words of wisdom.\nLet it be, let it be.";
    expect(applyRule(dedup, song).text).toBe(song);
    expect(applyRule(dedup, "Yes. No. Yes.").text).toBe("Yes. No. Yes.");
  });
  test("a repeated line of several sentences stays whole, with its negations", () => {
    const passage = "I could not find the key at home. So I waited by the door for hours.";
    const text = `${passage}\nRewrite this in a funnier way.\n${passage}`;
    expect(applyRule(dedup, text).text).toBe(text);
  });
  test("a repeated sentence that opens a list item keeps its marker, and no marker appears", () => {
    const list = "- Read the notes first. Then write the summary.\n- Read the notes first. Then send the email.";
    expect(applyRule(dedup, list).text).toBe(list);
    const exposed = "Read the notes first. Then write the summary.\nRead the notes first. 2) Then send the email.";
    expect(applyRule(dedup, exposed).text).toBe(exposed);
    // Inside a line, after its opening, the repeat still goes.
    expect(applyRule(dedup, "- Then write it. Read the notes first.\n- Then send it. Read the notes first.").text).toBe(
      "- Then write it. Read the notes first.\n- Then send it. ",
    );
  });
});

describe("repeat", () => {
  const conversation = [
    { role: "system" as const, content: "You are terse. Always answer in valid JSON." },
    { role: "user" as const, content: "List three colors. Always answer in valid JSON." },
    { role: "assistant" as const, content: '["red","green","blue"]' },
    { role: "user" as const, content: "Now three animals. Do not use recursion in any code." },
    { role: "assistant" as const, content: "Noted." },
    { role: "user" as const, content: "Write the sorter. Do not use recursion in any code." },
  ];
  test("an instruction the system prompt already gives is dropped from old turns", () => {
    expect(applyRule(repeat, conversation, { index: 1 }).text).toBe("List three colors. ");
  });
  test("an instruction the user repeats later is dropped from the earlier turn", () => {
    expect(applyRule(repeat, conversation, { index: 3 }).text).toBe("Now three animals. ");
  });
  test("the last user turn and the system prompt keep theirs", () => {
    expect(applyRule(repeat, conversation, { index: 5, careful: true }).text).toBe(conversation[5]!.content);
    expect(applyRule(repeat, conversation, { index: 0, careful: true }).text).toBe(conversation[0]!.content);
  });
});

describe("json", () => {
  test("minifies bare JSON without touching a value", () => {
    const text = 'Deploy with\n{\n  "name": "My  App",\n  "ratio": 1.50,\n  "tags": [\n    "a b",\n    "c"\n  ],\n  "on": true\n}\nThen deploy.';
    expect(applyRule(json, text).text).toBe('Deploy with\n{\n"name":"My  App",\n"ratio":1.50,\n"tags":[\n"a b",\n"c"\n],\n"on":true\n}\nThen deploy.');
  });
  test("JSON handed over after a colon is data and stays as written", () => {
    const text = 'Extract the names from this:\n{\n  "name": "My  App",\n  "on": true\n}';
    expect(applyRule(json, text).text).toBe(text);
  });
  test("keeps one line break per line: rules never join lines", () => {
    const text = '{\n  "a": "x",\n\n  "b": true\n}';
    expect(applyRule(json, text).text).toBe('{\n"a":"x",\n"b":true\n}');
  });
  test("empty strings are values: kept while the JSON around them is tightened", () => {
    expect(applyRule(json, 'Fill in: { "name": "", "props": {}, "tags": [] } please.').text).toBe('Fill in: {"name":"","props":{},"tags":[]} please.');
  });
  test("fenced JSON is a code block and stays as written", () => {
    const text = '```json\n{\n  "a": 1\n}\n```';
    expect(applyRule(json, text).text).toBe(text);
  });
  test("prose in brackets is not JSON", () => {
    const text = "See the notes (and [the appendix], for details).";
    expect(applyRule(json, text).text).toBe(text);
  });
});

describe("emphasis", () => {
  test("drops bold markers around prose", () => {
    expect(applyRule(emphasis, "This is **very important** and **so is this**.").text).toBe("This is very important and so is this.");
  });
  test("drops bold labels after list markers, which are protected spans", () => {
    expect(applyRule(emphasis, "- **Lighting:** moody\n1. **Palette:** dark").text).toBe("- Lighting: moody\n1. Palette: dark");
  });
  test("bold named by a formatting instruction is part of the instruction", () => {
    const text = "Format every key term in **bold**, like **this**, in the summary.";
    expect(applyRule(emphasis, text).text).toBe(text);
  });
  test("bold that opens with a list marker stays: unwrapped at a line start it would be a list item", () => {
    const text = "Check these:\n**1) Logical order**\nThe steps come first.\n**2.** Then the rest.\n**A. Scope**";
    expect(applyRule(emphasis, text).text).toBe(text);
  });
  test("leaves arithmetic and identifiers alone", () => {
    for (const text of ["So it is 2**3 plus 2**1 in total.", "Call __init__ and x**y**z here."]) expect(applyRule(emphasis, text).text).toBe(text);
  });
});

describe("prune", () => {
  const repeat16 = (sentence: string) => Array.from({ length: 16 }, () => sentence).join(" ");
  const first = (text: string, level: number) => applyRule(prune, text, { level }).text.split(". ")[0]!;
  test("drops intensifiers and 'also' in a long passage from 0.5, and nothing below", () => {
    const text = repeat16("The team is also really happy with the very good plan for the launch.");
    expect(first(text, 0.25)).toBe("The team is also really happy with the very good plan for the launch");
    // "also" goes; "really happy" and "very good" say how much, and stay (text/intensifiers.ts).
    expect(first(text, 0.5)).toBe("The team is really happy with the very good plan for the launch");
    const verbs = repeat16("We really want the new plan and they would really like it for the launch.");
    expect(first(verbs, 0.5)).toBe("We want the new plan and they would like it for the launch");
    expect(first(text, 1)).toBe("The team is really happy with the very good plan for the launch");
  });
  test("articles, copulas, demonstratives, possessives, a list's 'and' and constraints stay (issue 25)", () => {
    const sentences = [
      "I hope this isn't a silly question about the plan we have for the launch.",
      "Hope your day is going well and the team is happy with the plan.",
      "Gas costs $3.45 a gallon and we drive two weekends in a row to the lake.",
      "We compared Jira, Linear, and Asana for the team and picked the cheapest one.",
      "The editor will send this draft to the printer when the day is done.",
    ];
    const text = repeat16(sentences.join(" "));
    expect(applyRule(prune, text, { level: 1 }).text).toBe(text);
  });
  test("short prompts are not pruned unless the phrase rules found them wordy", () => {
    const short =
      "Natalia sold clips to 48 of her friends in April, and then she really sold half as many clips in May. How many clips did Natalia sell altogether in April and May?";
    expect(applyRule(prune, short, { level: 1 }).text).toBe(short);
  });
  test("never prunes text in another language", () => {
    const spanish = Array.from({ length: 20 }, () => "Voy a la playa con mis amigos de la escuela y a comer en el restaurante very muy bien.").join(" ");
    expect(applyRule(prune, spanish, { level: 1 }).text).toBe(spanish);
  });
  test("an unclosed code fence is code to the end of the message", () => {
    const text = `${repeat16("The team is also really happy with the plan for the launch.")}\n\`\`\`\nthe value is very much a string\n`;
    const out = applyRule(prune, text, { level: 1 }).text;
    expect(out).toEndWith("```\nthe value is very much a string\n");
    expect(out.length).toBeLessThan(text.length);
  });
});
