import { readFileSync } from "node:fs";
import { dataPath } from "../data/paths";
import { arenaHard, awesomeChatgptPrompts, mtBench, selfInstruct, vicunaBench } from "../word-stats/corpora";

/**
 * The labelled PII texts of ../shared/data/presidio-synth-pii (synthetic, Faker-made; MIT), and the
 * split every consumer shares: whole templates go to the hold-out, so no sentence frame the tagger was
 * trained on is scored. bench/pii-eval.ts reports on the hold-out; models/pii-ner/train.ts never reads
 * it.
 */
export interface PresidioSpan {
  entity_type: string;
  entity_value: string;
  start_position: number;
  end_position: number;
}

export interface PresidioSample {
  full_text: string;
  spans: PresidioSpan[];
  template_id: number;
}

export const PRESIDIO_LARGE = dataPath("presidio-synth-pii", "generated_large.json");

/** A presidio-shaped JSON file, or a marked-up text file (readMarked) when the path ends in .txt. */
export function readPresidio(path = PRESIDIO_LARGE): PresidioSample[] {
  const text = readFileSync(path, "utf8");
  return path.endsWith(".txt") ? readMarked(text) : (JSON.parse(text) as PresidioSample[]);
}

const MARK_TYPE: Record<string, string> = { P: "PERSON", A: "ADDRESS", L: "LOCATION", O: "ORGANIZATION" };

/**
 * Samples written one a line with their spans marked in place: [[P:...]] a person, [[A:...]] an
 * address, [[L:...]] a place, [[O:...]] an organisation; "\n" is a line break, and lines starting
 * with "#" are comments (bench/data/pii-newstyle-dev.txt). Each line is its own template.
 */
export function readMarked(text: string): PresidioSample[] {
  const samples: PresidioSample[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("#")) continue;
    const source = line.replaceAll("\\n", "\n");
    let full = "";
    let at = 0;
    const spans: PresidioSpan[] = [];
    for (const m of source.matchAll(/\[\[([PALO]):([^\]]+)\]\]/g)) {
      full += source.slice(at, m.index);
      spans.push({ entity_type: MARK_TYPE[m[1]!]!, entity_value: m[2]!, start_position: full.length, end_position: full.length + m[2]!.length });
      full += m[2]!;
      at = m.index + m[0].length;
    }
    full += source.slice(at);
    samples.push({ full_text: full, spans, template_id: samples.length });
  }
  return samples;
}

const hash = (id: number) => Math.imul(id + 1, 2654435761) >>> 0;

/**
 * The held-out templates: for every entity type, the template with the lowest fixed hash among those
 * that contain it (so each type is scored on frames the tagger never saw), then more templates in
 * hash order until a fifth of the samples are held out.
 */
export function holdoutTemplates(samples: readonly PresidioSample[]): Set<number> {
  const byType = new Map<string, Set<number>>();
  const size = new Map<number, number>();
  for (const s of samples) {
    size.set(s.template_id, (size.get(s.template_id) ?? 0) + 1);
    for (const span of s.spans) {
      let set = byType.get(span.entity_type);
      if (!set) byType.set(span.entity_type, (set = new Set()));
      set.add(s.template_id);
    }
  }
  const held = new Set<number>();
  for (const templates of byType.values()) {
    const sorted = [...templates].sort((a, b) => hash(a) - hash(b));
    if (!sorted.some((t) => held.has(t))) held.add(sorted[0]!);
  }
  let count = [...held].reduce((n, t) => n + size.get(t)!, 0);
  for (const t of [...size.keys()].sort((a, b) => hash(a) - hash(b))) {
    if (count >= samples.length / 5) break;
    if (!held.has(t)) {
      held.add(t);
      count += size.get(t)!;
    }
  }
  return held;
}

/** The samples split into training and hold-out. */
export function splitPresidio(samples: readonly PresidioSample[]): { train: PresidioSample[]; holdout: PresidioSample[] } {
  const held = holdoutTemplates(samples);
  return { train: samples.filter((s) => !held.has(s.template_id)), holdout: samples.filter((s) => held.has(s.template_id)) };
}

/** The development split: held-out templates of the training split, for choosing settings. */
export function developmentSplit(samples: readonly PresidioSample[]): PresidioSample[] {
  const { train } = splitPresidio(samples);
  const held = holdoutTemplates(train);
  return train.filter((s) => held.has(s.template_id));
}

/** Presidio's entity names for the types this project detects (others are not PII we mask). */
export const PRESIDIO_TYPE: Record<string, string> = {
  EMAIL_ADDRESS: "EMAIL",
  PHONE_NUMBER: "PHONE",
  CREDIT_CARD: "CARD",
  IBAN_CODE: "IBAN",
  US_SSN: "SSN",
  IP_ADDRESS: "IP",
  PERSON: "PERSON",
  ADDRESS: "ADDRESS",
};

/**
 * Ordinary prompts from the shared corpora (awesome-chatgpt-prompts, self-instruct, arena-hard,
 * mt-bench, vicuna-bench): text in which the tagger should find no person and no address. They are
 * not checked by hand, so the odd real name among them counts against the tagger. One in five (by a
 * hash of its id) is held out for bench/pii-eval.ts's false-alarm figure; gsm8k is left out, as its
 * word problems are full of people's names.
 */
export function ordinaryPrompts(): { train: string[]; holdout: string[] } {
  const train: string[] = [];
  const holdout: string[] = [];
  for (const p of [awesomeChatgptPrompts(), selfInstruct(), arenaHard(), mtBench(), vicunaBench()].flat()) {
    (Bun.hash.crc32(p.id) % 5 === 0 ? holdout : train).push(p.turns.join("\n\n"));
  }
  return { train, holdout };
}
