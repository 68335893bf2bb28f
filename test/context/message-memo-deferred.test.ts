import { afterAll, describe, expect, spyOn, test } from "bun:test";
import * as count from "../../src/tokens/count";
import { MessageMemo } from "../../src/pipeline/context/message-memo";
import { TOKENS_PER_MESSAGE } from "../../src/pipeline/context/conversations";

/**
 * The message memo's work (hashing each message) waits until after the current task, so it is not done
 * before the answer of the call it comes from goes out; a lookup made before then still sees it. Tokens
 * are counted only for a message a later call reuses.
 */
const counting = spyOn(count, "countTokens");
afterAll(() => counting.mockRestore());

const scope = { appId: "a", aggressiveness: 0.5, skipRules: [] as string[] };
const asked = { role: "user" as const, content: "Hello! Could you please write a haiku about the sea? Thank you so much!" };
const answer = { role: "assistant" as const, content: "Waves fold into foam" };
const next = [asked, answer, { role: "user" as const, content: "Now one about the hills." }];
const turnOf = () =>
  [
    [asked, answer],
    [{ role: "user" as const, content: "Write a haiku about the sea." }, answer],
  ] as const;

describe("message memo, deferred", () => {
  test("remember counts no tokens, neither in the caller's task nor after it; a reuse counts them once", async () => {
    const memo = new MessageMemo(1_000_000);
    const [originals, sent] = turnOf();
    counting.mockClear();
    memo.remember(scope, originals, sent);
    await new Promise((resolve) => setImmediate(resolve));
    expect(memo.size).toBe(2);
    expect(counting).not.toHaveBeenCalled();
    const found = memo.prefix(scope, next);
    expect(found?.messages.map((m) => m.content)).toEqual(["Write a haiku about the sea.", answer.content]);
    // Both forms of the asked message (they differ) and the answer's one (sent as it came).
    expect(counting).toHaveBeenCalledTimes(3);
    expect(found?.originalTokens).toBe(count.countTokens(asked.content) + count.countTokens(answer.content) + 2 * TOKENS_PER_MESSAGE);
    expect(found?.sentTokens).toBe(count.countTokens(sent[0].content) + count.countTokens(answer.content) + 2 * TOKENS_PER_MESSAGE);
    counting.mockClear();
    memo.prefix(scope, next);
    expect(counting).not.toHaveBeenCalled();
  });

  test("a lookup made before then sees what was remembered", () => {
    const memo = new MessageMemo(1_000_000);
    const [originals, sent] = turnOf();
    memo.remember(scope, originals, sent);
    const found = memo.prefix(scope, next);
    expect(found?.count).toBe(2);
    expect(found?.messages[0]?.content).toBe("Write a haiku about the sea.");
    expect(memo.size).toBe(2);
  });
});
