import { describe, expect, test } from "bun:test";
import { compressMessages } from "../../src/pipeline/compress";

/**
 * A social sentence the next sentence asks about is the prompt's subject, not its framing (review13c's probes,
 * session 11: "Happy new week! Is that a common greeting in Ghana?" went out as "Is that a common greeting in
 * Ghana?"). Each shape is kept at every level; look-alikes whose pointer opens on nothing before it still lose
 * their greeting.
 */
const LEVELS = [0.25, 0.5, 1] as const;
const send = (content: string, level: number) => compressMessages([{ role: "user", content }], { aggressiveness: level, skipRules: [] }).messages[0]!.content;

describe("a sentence the next one points back at", () => {
  test.each([
    ["Hope you're well!", "Is that too informal for an email to my landlord?"],
    ["Happy Friday!", "Does this sound too casual for a client?"],
    ["Good morning!", "What does this greeting sound like to a German speaker?"],
    ["Thanks a bunch!", "Is this phrase rude in British English?"],
    ["Cheers, mate!", "That's all my brother texted back. Write a reply."],
    ["How are you doing?", "What's the best way to answer this in Japanese?"],
    ["Happy new week!", "is the slogan on our flyer. Suggest three alternatives."],
    ["Good afternoon o!", "— is this greeting too casual for a bank manager?"],
    ["Sorry for the late reply!", "My boss wrote me that. Is it passive-aggressive?"],
  ])("%s / %s: kept", (phrase, question) => {
    for (const level of LEVELS) expect(send(`${phrase} ${question}`, level)).toContain(phrase);
  });

  test.each([
    "Hi again! Is it possible for you to make a table comparing cats and dogs, with columns for cost and space?",
    "Hello! This is a sad one: our dog died and the kids want a short poem for him.",
    "Hi there! I hope you are doing well. Fix the grammar in this sentence: me and him goes to the gym every days.",
    "Hiiii. It's 11pm and my 2 year old won't sleep. Any tips?",
  ])("a pointer that opens on nothing before it leaves the greeting to go: %s", (text) => {
    expect(send(text, 0.5)).not.toMatch(/^(?:Hi|Hello)/);
  });
});

describe("the session's second reading: what the new removals must leave", () => {
  test.each([
    ["Is this correct English? I need small help.", "I need small help."],
    ["Correct this for me please, my boss will read it. I need small help.", "I need small help."],
    ["Translate the toast into French. Thank you all for coming! The toast:\nWelcome everyone.", "Thank you all for coming!"],
    ["Hi O, how do I bake bread?", "O,"],
  ])("%s keeps %s", (text, kept) => {
    for (const level of LEVELS) expect(send(text, level)).toContain(kept);
  });

  test("an announcement before the request still goes", () => {
    expect(send("I need small help. How do I renew my passport?", 0.5)).toBe("How do I renew my passport?");
  });
});
