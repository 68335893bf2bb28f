import { TokenWordSet } from "./features";

/**
 * Titles of other languages ("Herr Schmidt", "Señor, your table is ready."): no one's name, and no
 * address either (the tagger, kept from PERSON, made "Frau" of "Frau Köhler" an address); the word after
 * one is a name as after "Mr" (completeNames). Added in issue 30's second round: the tagger had taken
 * "Herr" and "Madame" into the names after them. Dutch "Mevrouw" and "Meneer" added in the twelfth round ("Mevrouw de
 * Jong will hand over keys": missed on its development set, bench/data/pii-dev12.txt).
 */
export const FOREIGN_TITLES = ["herr", "frau", "señor", "señora", "monsieur", "madame", "mme", "signor", "signora", "mevrouw", "meneer"];

/** The English titles before a name, which count in lower case too ("mrs adeleke", tagger.ts titledStart). */
export const ENGLISH_TITLES = ["mr", "mrs", "ms", "dr", "prof", "mx"];

/** The titles before a name, in English and the languages above: the word after one is a name (completeNames), none is one itself (records.ts). */
export const TITLES = new TokenWordSet([...ENGLISH_TITLES, ...FOREIGN_TITLES]);

/**
 * The lower-case particles of family names: Spanish, Portuguese, Italian, French, Dutch, German and Malay ("de los",
 * "van der", "bin"). tagger.ts particleNames passes words over on their first letter (firstLetters of these).
 */
export const NAME_PARTICLE_WORDS = "de del della di da das do dos du la las los le van von der den bin binti bint".split(" ");
export const NAME_PARTICLES = new TokenWordSet(NAME_PARTICLE_WORDS);
