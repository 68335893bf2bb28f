// A writer thread for test/store/write-thread.test.ts: answers every request by id; one with
// `throw: true` makes the thread die without answering.
declare const self: Worker;

self.onmessage = (ev: MessageEvent<{ id: number; throw?: boolean }>) => {
  if (ev.data.throw) throw new Error("the writer's connection is gone");
  self.postMessage({ id: ev.data.id });
};
