import { Rng } from "../data/rng";
import type { ScoredPair } from "../data/sts";

/**
 * Self-supervised pairs from the prompt corpora: a real prompt, and the same prompt wrapped in
 * politeness and hedging filler, scored as equivalent (5). They teach the embedding what prompt
 * compression removes: words that carry no meaning of the request.
 */
const OPENERS = [
  "Hi!",
  "Hello,",
  "Hey there!",
  "Good morning!",
  "Please",
  "Could you please",
  "Can you please",
  "Would you kindly",
  "I was wondering if you could",
  "I need your help.",
  "I would really appreciate it if you could",
  "If possible,",
  "If you don't mind,",
  "Just",
  "Basically,",
  "So,",
  "Okay so",
  "I'd like you to",
  "Hi, hope you are well.",
  "Quick question:",
  "If it's not too much trouble,",
  "Sorry to bother you, but",
  "I hope this makes sense.",
  "As an AI language model, please",
];
const CLOSERS = [
  "Thanks!",
  "Thank you!",
  "Thanks in advance.",
  "Thank you very much.",
  "Much appreciated.",
  "Please.",
  "if you can.",
  "if possible.",
  "Cheers!",
  "Thanks a lot for your help.",
];
const ADVERBS = ["basically", "actually", "really", "just", "kindly", "simply", "literally", "honestly"];

function withFiller(text: string, rng: Rng): string {
  const words = text.split(" ");
  if (rng.next() < 0.5 && words.length > 3) words.splice(1 + rng.int(words.length - 1), 0, ADVERBS[rng.int(ADVERBS.length)]!);
  let out = words.join(" ");
  if (rng.next() < 0.8) out = `${OPENERS[rng.int(OPENERS.length)]} ${out}`;
  if (rng.next() < 0.5) out = `${out} ${CLOSERS[rng.int(CLOSERS.length)]}`;
  return out;
}

export function fillerPairs(prompts: readonly string[], count: number, seed: number): ScoredPair[] {
  const rng = new Rng(seed);
  const short = prompts.filter((p) => p.length >= 20 && p.length <= 400);
  return Array.from({ length: count }, () => {
    const prompt = short[rng.int(short.length)]!;
    return { a: withFiller(prompt, rng), b: prompt, score: 5, source: "self-supervised/filler" };
  });
}
