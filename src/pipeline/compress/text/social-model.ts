import weightsFile from "../../../../models/social-sentence/weights.json";

/**
 * A linear model of whether a whole sentence is social framing (well-wishing, backstory, apology,
 * self-deprecation, thanks, laughter, a sign-off) or content (issue 25, 7th batch). The phrase patterns
 * and closed vocabulary of social.ts and social-vocab.ts fit the framings of the writers they were
 * written against (34-38% of tokens removed on our chatty corpora) and missed other writers' (12.4% on
 * the lead's blind set of an outside writer, 13.2% on bench/data/chatty-dev-10.json): a sentence in a new
 * phrasing ("I've had three cups of tea and I'm still none the wiser.") is no unit of theirs. Trained by
 * models/social-sentence/train.ts; see its MODEL_CARD.md. The model only proposes: the `smalltalk` rule
 * removes a sentence only where it is confident and no guard vetoes.
 */
interface SocialWeights {
  bias: number;
  weights: Record<string, number>;
}

const { bias, weights: table } = weightsFile as SocialWeights;
const WEIGHTS = new Map(Object.entries(table));

/**
 * Tokens of a sentence: lower-case words (a straight apostrophe), digits as one token, emoji and
 * emoticons as one, "!" and "?" as themselves; any protected span's placeholder as one.
 */
const TOKEN = /[a-z]+(?:'[a-z]+)*|\d+|[!?]|[:;]-?[)(dp]|<3|[\uE000-\uF8FF]+|(?:[\u2600-\u27BF\u2B00-\u2BFF]|[\uD83C-\uD83E][\uDC00-\uDFFF])/g;

function token(raw: string): string {
  const c = raw.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return "<num>";
  if (c >= 0xe000 && c <= 0xf8ff) return "<span>";
  if (c >= 0x2600 || (raw.length > 1 && (raw[0] === ":" || raw[0] === ";" || raw[0] === "<"))) return "<emo>";
  return raw;
}

/** The features of a sentence: words, word pairs, the first word and pair, the last token. */
export function socialFeatures(sentence: string): string[] {
  const tokens = (sentence.toLowerCase().replace(/[’‘]/g, "'").match(TOKEN) ?? []).map(token);
  if (tokens.length === 0) return [];
  const features = [`s:${tokens[0]}`, `e:${tokens[tokens.length - 1]}`, `n:${Math.min(tokens.length, 30) >> 2}`];
  if (tokens.length > 1) features.push(`s2:${tokens[0]} ${tokens[1]}`);
  for (let i = 0; i < tokens.length; i++) {
    features.push(`w:${tokens[i]}`);
    if (i > 0) features.push(`b:${tokens[i - 1]} ${tokens[i]}`);
  }
  return features;
}

/** The model's probability that `sentence` is social framing, 0-1. */
export function socialProbability(sentence: string): number {
  let z = bias;
  for (const f of socialFeatures(sentence)) z += WEIGHTS.get(f) ?? 0;
  return 1 / (1 + Math.exp(-z));
}

/**
 * What no sentence the model may call social holds: a protected span's placeholder, a digit, a question,
 * quotation, code or markup, a colon that hands something over (not an emoticon's), a negation.
 */
const VETO =
  /[\uE000-\uF8FF\d?+"“”«»`<>{}[\]()/\\=*#_|@$%&]|:(?!-?[)(DPp])|\b(?:not|no|never|none|nothing|nobody|neither|nor|without|cannot|nowhere)\b|n['’]t\b/i;
/** A capital after the first word that is no "I" or day of the week: a name, an acronym, a title the sentence may be about. */
const NAMED = /\s(?!I(?:['’](?:m|ve|d|ll))?\b|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b)[^\s\p{Ll}\p{N}\p{P}\p{S}]/u;

/**
 * A sentence of one or two words ("Sure!", "!!!", "Warm regards,") is left to the pleasantries rule's
 * closed vocabulary: alone, such a line is as likely a pasted reply's (arena-hard: "Response A\nSure! Here's ...").
 */
const THREE_WORDS = /[a-z]+\W+[a-z]+\W+[a-z]/i;

/** Whether the model calls `sentence` social with at least `threshold` and no guard vetoes it. */
export function isConfidentSmalltalk(sentence: string, threshold: number): boolean {
  if (VETO.test(sentence) || NAMED.test(sentence) || !THREE_WORDS.test(sentence)) return false;
  return socialProbability(sentence) >= threshold;
}
