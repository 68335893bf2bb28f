/**
 * Words the tagger is told are parts of a country's name or a company's legal form: the training
 * templates put a country or a company where other templates put a person ("the Uganda Producer",
 * "Smith Ltd"), and the words of the countries and companies a template never showed were read as
 * names (development split errors). A flag a feature reads, not a rule: "Chad" stays a possible name.
 */

/** Small words of country names that say nothing by themselves. */
const COUNTRY_FILLER = new Set(
  "and of the da de del el la st st. saint island islands republic united north south east west new central great democratic federal outlying minor people's sar china us u.s. & territory territories".split(
    " ",
  ),
);

let countries: Set<string> | undefined;

/**
 * The lower-cased words of every country and territory name, in English, from the runtime's ICU
 * (Intl.DisplayNames over every two-letter region code): no list to keep up to date.
 */
export function countryWords(): ReadonlySet<string> {
  if (countries) return countries;
  const names = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });
  countries = new Set();
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        continue;
      }
      if (!name || name === code) continue;
      for (const w of name.toLowerCase().split(/[\s,()]+/)) if (w.length > 2 && !COUNTRY_FILLER.has(w)) countries.add(w);
    }
  return countries;
}

/** A company's legal form or the words company names end in (written for this project). */
export const COMPANY_WORDS: ReadonlySet<string> = new Set(
  "inc incorporated ltd limited llc llp plc corp corporation co company gmbh ag sa sas sarl bv nv srl spa oy ab as kk pty group holdings technologies solutions systems labs partners associates enterprises industries consulting ventures".split(
    " ",
  ),
);
