import type { CompressionRule } from "../types";
import { dedup } from "./dedup";
import { disclaimers } from "./disclaimers";
import { emphasis } from "./emphasis";
import { filler } from "./filler";
import { intent } from "./intent";
import { json } from "./json";
import { pleasantries } from "./pleasantries";
import { preamble } from "./preamble";
import { prune } from "./prune";
import { repeat } from "./repeat";
import { smalltalk } from "./smalltalk";
import { whitespace } from "./whitespace";

/**
 * The pipeline, in the order it runs. Sentence-level rules run before word-level ones, so pruning
 * sees what the others left; whitespace runs first and again at the end to tidy up.
 */
export const RULES: readonly CompressionRule[] = [
  whitespace,
  pleasantries,
  smalltalk,
  disclaimers,
  preamble,
  intent,
  filler,
  dedup,
  repeat,
  json,
  emphasis,
  prune,
];
