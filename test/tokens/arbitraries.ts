import fc from "fast-check";

const chars = (s: string) => fc.constantFrom(...Array.from(s));
const CONTROL = String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i).filter((c) => c < 9 || c > 13), 0x7f);

/**
 * Text made mostly of ASCII, weighted towards what the scanner decides on its own, with the non-ASCII
 * characters each rule could be fooled by: letters (Lu, Ll, Lt, Lm, Lo) and combining marks that would
 * continue a word, `\s` beyond ASCII that would continue a whitespace run, digits beyond ASCII that
 * would continue a digit group, symbols beyond ASCII that would continue a symbol run, the typographic
 * apostrophe (not a contraction), emoji and a lone surrogate.
 */
const unit = fc.oneof(
  { weight: 30, arbitrary: chars("abcdefghijklmnopqrstuvwxyz") },
  { weight: 12, arbitrary: chars("ABCDEFGHIJKLMNOPQRSTUVWXYZ") },
  { weight: 8, arbitrary: chars("0123456789") },
  { weight: 16, arbitrary: fc.constant(" ") },
  { weight: 4, arbitrary: chars("\n\r") },
  { weight: 2, arbitrary: chars("\t\v\f") },
  { weight: 5, arbitrary: chars("'") },
  { weight: 4, arbitrary: chars("/") },
  { weight: 8, arbitrary: chars('.,;:!?-()[]{}"<>@#$%^&*_+=|\\~`') },
  { weight: 1, arbitrary: chars(CONTROL) },
  {
    weight: 3,
    arbitrary: fc.constantFrom("'s", "'S", "'t", "'T", "'re", "'RE", "'rE", "'ve", "'Ve", "'m", "'M", "'ll", "'LL", "'lL", "'d", "'D", "'l", "'v", "'r"),
  },
  { weight: 3, arbitrary: chars("éßñçøÉÑΩωжЖ日本ǅʰªاअ") },
  { weight: 2, arbitrary: chars("\u0301\u0308\u0327\u093f") },
  { weight: 1, arbitrary: chars("\u00a0\u1680\u2003\u2028\u2029\u202f\u3000\ufeff\u0085") },
  { weight: 1, arbitrary: chars("٣²５Ⅻ½") },
  { weight: 1, arbitrary: chars("’‘“”—…€•") },
  { weight: 1, arbitrary: fc.constantFrom("👍", "👍🏽", "🚀", "\ud800", "\udc00") },
);
export const asciiHeavy = fc.array(unit, { maxLength: 120 }).map((u) => u.join(""));

const ASCII_UNIT = unit.filter((u) => /^[\x00-\x7f]*$/.test(u));
export const ascii = fc.array(ASCII_UNIT, { maxLength: 120 }).map((u) => u.join(""));

/** Word-shaped text: cased words with and without contractions, digit runs and whitespace runs in between. */
const word = fc.oneof(
  fc.stringMatching(/^[a-z]{1,8}$/),
  fc.stringMatching(/^[A-Z]{1,8}$/),
  fc.stringMatching(/^[A-Z][a-z]{1,8}$/),
  fc.stringMatching(/^[a-z]{1,5}[A-Z][a-z]{0,5}$/),
  fc.stringMatching(/^[A-Z]{2,5}[a-z]{1,5}$/),
);
const contraction = fc
  .tuple(word, fc.constantFrom("'", "’"), fc.stringMatching(/^(s|t|re|ve|m|ll|d|l|v|r|sup|llama|S|T|RE|VE|M|LL|D|Ll|vE)$/))
  .map((t) => t.join(""));
const digits = fc.stringMatching(/^[0-9]{1,14}$/);
const whitespace = fc
  .array(fc.constantFrom(" ", " ", " ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u00a0", "\u3000"), { minLength: 1, maxLength: 8 })
  .map((w) => w.join(""));
const symbols = fc.array(chars(".,;:!?-()[]{}\"'/<>#*=`\\"), { minLength: 1, maxLength: 4 }).map((s) => s.join(""));
export const shaped = fc.array(fc.oneof(word, contraction, digits, whitespace, symbols, chars("éÉ日\u0301٣")), { maxLength: 40 }).map((p) => p.join(""));
