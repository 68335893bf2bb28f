import { workerData } from "node:worker_threads";
import type { Settings } from "../src/config/config";
import { optimize } from "../src/pipeline/optimize";
import { loadOptimizerDeps } from "../src/pipeline/optimizer-deps";
import type { OptimizeInput, OptimizeResult } from "../src/pipeline/optimize-types";
import { packedTask } from "./pool";

/** One optimizer task per request; the models load once per worker, when the worker starts. */
const deps = loadOptimizerDeps(workerData as Settings);

export default packedTask<OptimizeInput, OptimizeResult>(async (input) => optimize(input, await deps), deps);
