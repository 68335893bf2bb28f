import { workerData } from "node:worker_threads";
import { serveCacheWrites } from "../src/pipeline/cache/persistence";

declare const self: Worker;

const { dbPath, busyTimeoutMs } = workerData as { dbPath: string; busyTimeoutMs: number };
const serve = serveCacheWrites(dbPath, busyTimeoutMs, (reply) => self.postMessage(reply));
self.onmessage = (ev: MessageEvent) => serve(ev.data);
