import { randomBytes } from "node:crypto";

/** Ids in OpenAI's style: a prefix (resp, msg, fc) and 48 random hex characters. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString("hex")}`;
}
