/**
 * The words a US or UK street's name ends with, and their abbreviations: one list for the street-line
 * rule of address.ts (capitalised words), the address lines of address-lines.ts (any case: "w 12th
 * st", "COUNTY RD 40"), the house-number test of phone.ts and the tagger's street words (tagger.ts,
 * address-parts.ts), which had each written their own.
 */
export const STREET_WORDS =
  "street st avenue ave road rd lane ln drive dr boulevard blvd way court ct parkway pkwy place pl square sq terrace ter circle cir trail trl highway hwy".split(
    " ",
  );

const capitalise = (w: string) => w[0]!.toUpperCase() + w.slice(1);
/** "Street|St|Avenue|...": regex alternatives. */
export const STREET_WORDS_CAPITALISED = STREET_WORDS.map(capitalise).join("|");
/** "street|STREET|Street|...". */
export const STREET_WORDS_ANY_CASE = STREET_WORDS.flatMap((w) => [w, w.toUpperCase(), capitalise(w)]).join("|");
