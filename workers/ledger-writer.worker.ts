import { workerData } from "node:worker_threads";
import { serveLedgerWrites } from "../src/accounting/ledger-writer";

declare const self: Worker;

const { dbPath, busyTimeoutMs } = workerData as { dbPath: string; busyTimeoutMs: number };
const serve = serveLedgerWrites(dbPath, busyTimeoutMs, (reply) => self.postMessage(reply));
self.onmessage = (ev: MessageEvent) => serve(ev.data);
