import { describe, expect, test } from "bun:test";
import { addBudgets, EMPTY_BUDGET, tokenBudget } from "../../bench/lib/token-budget";
import { countTokens } from "../../src/tokens/count";

describe("the compression eval's token budget", () => {
  test("puts protected spans, symbols, closed-class and other words each in their own part", () => {
    const text = "Please write the parser in `parse_rows()` and do not use recursion: **fast**.";
    const b = tokenBudget(text);
    // Inline code and the negation with its auxiliary and the words it binds are kept byte for byte.
    expect(b.protected).toBe(countTokens("`parse_rows()`") + countTokens("do not use recursion"));
    // "Please", "the", "in", "and" are grammar; "write", "parser", "fast" are not.
    expect(b.closedClass).toBe(4);
    expect(b.otherWords).toBe(countTokens(" write") + countTokens(" parser") + countTokens(" fast"));
    expect(b.symbols).toBe(countTokens(" :") + countTokens(" **") + countTokens(" **."));
    expect(b.total).toBe(countTokens(text));
  });

  test("contractions of grammar words are closed-class, with either apostrophe", () => {
    const b = tokenBudget("I'm sure it’s there");
    // "I'm", "it’s" and "there"; "sure" is the one other word.
    expect(b.closedClass).toBe(countTokens(" I'm") + countTokens(" it’s") + countTokens(" there"));
    expect(b.otherWords).toBe(countTokens(" sure"));
  });

  test("a text that is all code is all protected", () => {
    const b = tokenBudget("```js\nconst x = 1;\n```");
    expect(b.protected).toBe(b.total);
    expect(b.closedClass + b.otherWords + b.symbols).toBe(0);
  });

  test("budgets add part by part", () => {
    const a = tokenBudget("The cat sat.");
    const b = tokenBudget("A dog ran in the park.");
    const sum = addBudgets(addBudgets(EMPTY_BUDGET, a), b);
    expect(sum).toEqual({
      total: a.total + b.total,
      protected: a.protected + b.protected,
      symbols: a.symbols + b.symbols,
      closedClass: a.closedClass + b.closedClass,
      otherWords: a.otherWords + b.otherWords,
    });
  });
});
