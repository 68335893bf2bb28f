import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

/** The project root, found from this file so that training runs from any working directory. */
export const PROJECT_ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The public data sets (read in place, never copied into the repo): `../shared/data` from the project root. */
export const SHARED_DATA = resolve(PROJECT_ROOT, "../shared/data");

export function dataPath(...parts: string[]): string {
  return resolve(SHARED_DATA, ...parts);
}
