import { packedTask } from "../../workers/pool";

/** A worker for pool tests: echoes, computes, crashes or hangs on request. */
export default packedTask(async (input: { op: "echo" | "crash" | "hang" | "exit"; value?: unknown; floats?: Float32Array }) => {
  if (input.op === "crash") throw new Error("boom");
  if (input.op === "exit") process.exit(3);
  if (input.op === "hang") for (;;);
  return { value: input.value, sum: input.floats ? [...input.floats].reduce((a, b) => a + b, 0) : 0, thread: (await import("node:worker_threads")).threadId };
});
