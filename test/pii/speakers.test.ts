import { describe, expect, test } from "bun:test";
import { detectPii } from "../../src/pipeline/pii/detect";

/** The text of each person detection in `text`. */
const persons = (text: string) => detectPii(text).flatMap((d) => (d.type === "PERSON" ? [text.slice(d.start, d.end)] : []));

// Written for this test (issue 30, seventh round), none copied from a development set: the rule of
// src/pipeline/pii/tagger/speakers.ts (lead 90c1f9e found ["sam"] in the first thread).
describe("PII a chat thread's speakers", () => {
  test("a given name opening two lines before a colon", () => {
    expect(persons("joy: did u see it\nsam: ya\njoy: same")).toEqual(["joy", "sam", "joy"]);
  });

  test("not a label repeated, nor one speaking once", () => {
    expect(persons("Note: the gate code changed.\nNote: bring ID.")).toEqual([]);
    expect(persons("Grace: 5 votes\nHope: 3 votes")).toEqual([]);
  });
  test("lists of seasons, marks, pros and cons are no chat (the eighth review's over-masking)", () => {
    expect(persons("Summer: hot and sunny\nWinter: cold\nSummer: long days too")).toEqual([]);
    expect(persons("Pros: cheap\nHope: it lasts\nCons: slow\nHope: they fix it")).toEqual([]);
    expect(persons("Mark: 85\nGrade: B\nMark: 90")).toEqual([]);
  });

  // Issue 30, twelfth round (written for this test): the thread's other speakers once one is a person.
  test("a thread's other speakers, once one is a person: a given name speaking once or spelled with accents", () => {
    expect(persons("Lukas: who moved the standup?\nAnjali: me, sorry\nLukas: ok")).toEqual(["Lukas", "Anjali", "Lukas"]);
    expect(persons("Inés: did Ximena merge it?\nXimena: yes\nInés: great")).toEqual(["Inés", "Ximena", "Ximena", "Inés"]);
  });

  test("not a header's labels, a bot or an acronym beside a person's lines", () => {
    expect(persons("From: Ingrid Solberg\nSent: Monday\nSubject: build")).toEqual(["Ingrid Solberg"]);
    expect(persons("Ingrid: deploy?\nJenkins: build 42 failed\nQA: blocked\nIngrid: ok")).toEqual(["Ingrid", "Ingrid"]);
  });
});
