/**
 * Whether this tree's PII detection finds exactly the spans another checkout's finds, text by text:
 * for a change meant to make detection faster and nothing else. The texts: every one bench/pii-speed.ts
 * times (the corpora's prompts, the presidio-dense messages), every one bench/pii-eval.ts scores (both
 * presidio-synth-pii files, the held-out and training ordinary prompts, the adversarial cases), and
 * seeded random strings dense in digits, separators, colons, hex letters and key prefixes, where the
 * detectors' cheap pre-checks could wrongly skip a text.
 *
 *   bun bench/pii-same.ts --baseline DIR    # DIR: e.g. `git worktree add DIR main`; exits 1 on any difference
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { detectPii } from "../src/pipeline/pii/detect";
import type { Detection } from "../src/pipeline/pii/types";
import { ordinaryPrompts, readPresidio } from "../models/pii-ner/data";
import { dataPath } from "../models/data/paths";
import { compressionCorpora } from "./lib/compression-corpora";
import { piiWorkloads } from "./lib/pii-workloads";

const args = process.argv.slice(2);
if (!args.includes("--baseline")) throw new Error("usage: bun bench/pii-same.ts --baseline DIR");
const baselineDir = resolve(args[args.indexOf("--baseline") + 1]!);
const theirs = (await import(join(baselineDir, "src/pipeline/pii/detect.ts"))).detectPii as (text: string) => Detection[];

/** Seeded strings of the characters the pre-checks look at, glued to words that name values. */
function fuzz(count: number): string[] {
  let seed = 0x9e3779b9;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const parts = [
    ..."0123456789 .-()+:x/@#abcdefABCDEF_\n",
    "ext. ",
    "SSN ",
    "phone: ",
    "call ",
    "password: ",
    "api_key=",
    "Bearer ",
    "token ",
    "sk-",
    "ghp_",
    "sk_live_",
    "AKIA",
    "eyJ",
    "https://",
    "user:pw@",
    "GB82 ",
    "::",
    "fe80",
    "Street ",
    "Main ",
    "Apt ",
  ];
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    let s = "";
    const length = 8 + Math.floor(next() * 120);
    for (let i = 0; i < length; i++) s += parts[Math.floor(next() * parts.length)];
    out.push(s);
  }
  return out;
}

const adversarial = (JSON.parse(readFileSync(join(import.meta.dir, "data", "pii-adversarial.json"), "utf8")) as { cases: { text: string }[] }).cases;
const ordinary = ordinaryPrompts();
const sources: [string, string[]][] = [
  ...piiWorkloads().map(([name, texts]): [string, string[]] => [`speed: ${name}`, texts]),
  ["corpora prompts", compressionCorpora().flatMap((c) => c.prompts.map((p) => p.turns.join("\n\n")))],
  ["ordinary prompts", [...ordinary.train, ...ordinary.holdout]],
  ["presidio large", readPresidio().map((s) => s.full_text)],
  ["presidio small", readPresidio(dataPath("presidio-synth-pii", "generated_small.json")).map((s) => s.full_text)],
  ["adversarial", adversarial.map((c) => c.text)],
  ["random", fuzz(50_000)],
];

let differing = 0;
console.log("texts                  count  spans  differing");
for (const [name, texts] of sources) {
  let spans = 0;
  let diff = 0;
  for (const text of texts) {
    const a = JSON.stringify(detectPii(text));
    const b = JSON.stringify(theirs(text));
    spans += detectPii(text).length;
    if (a !== b) {
      diff++;
      if (diff <= 3) console.log(`  differs: ${JSON.stringify(text.slice(0, 200))}\n    this: ${a}\n    base: ${b}`);
    }
  }
  differing += diff;
  console.log(`${name.padEnd(20)} ${String(texts.length).padStart(7)} ${String(spans).padStart(6)} ${String(diff).padStart(10)}`);
}
process.exit(differing === 0 ? 0 : 1);
