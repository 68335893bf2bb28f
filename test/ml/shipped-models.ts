import { loadModels, type Models } from "../../src/pipeline/models";

let shared: Promise<Models> | undefined;

/** The shipped models, loaded once per test process. */
export function shippedModels(): Promise<Models> {
  shared ??= loadModels();
  return shared;
}
