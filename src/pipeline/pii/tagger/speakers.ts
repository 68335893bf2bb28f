import { LABELS, wordOf } from "./features";
import { GIVEN_NAME_WORDS } from "./given-names";
import { Gap, type Tokens } from "./tokens";

/**
 * A chat thread's speakers: a given name opening two or more lines of a text before ": " ("Ivy: running
 * late\nMe: np\nIvy: ok 10 min", "joy: did u see\nsam: ya\njoy: same"). frames.ts takes one speaker line
 * only after a timestamp or when the name is no English word, as ordinary prompts' scripts open lines
 * with characters ("Mario: Let's see"); a name that speaks twice is a thread's person. On the outside
 * development set (bench/data/pii-outside-dev.txt, issue 30, seventh round) 4 of the missed person words;
 * the ordinary prompts' finds unchanged.
 */

const PERSON = LABELS.indexOf("PERSON");

/** Whether token i opens a line and ": " follows it. */
function speaks(tokens: Tokens, i: number): boolean {
  const g = tokens.gap(i);
  if (g !== Gap.Start && g !== Gap.Newline) return false;
  const end = tokens.end(i);
  return tokens.source.charCodeAt(end) === 58 && tokens.source.charCodeAt(end + 1) === 32;
}

export function speakerNames(tokens: Tokens, labels: Uint8Array): void {
  // Two lines at the least (one native scan: most prompts are one line).
  if (tokens.source.indexOf("\n") < 0) return;
  let seen: Map<number, number> | undefined;
  for (let i = 0; i < tokens.length; i++) {
    if (!speaks(tokens, i) || !GIVEN_NAME_WORDS.has(tokens, i)) continue;
    seen ??= new Map();
    const hash = wordOf(tokens, i);
    const first = seen.get(hash);
    if (first === undefined) {
      seen.set(hash, i);
      continue;
    }
    labels[first] = PERSON;
    labels[i] = PERSON;
  }
}
