/**
 * Run as its own process by pool.test.ts, because what it guards against kills the process: a pool of
 * the real optimizer workers (onnxruntime inside) with a short deadline (argv: ms), flooded with
 * every-stage tasks so deadlines fall while tasks run model code. No task is cut as stuck (hangMs is a
 * minute). Prints a JSON summary of the outcomes.
 *
 *   bun test/workers/deadlines-in-native-code.ts <deadline ms>
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Catalog } from "../../src/catalog/catalog";
import { loadSettings } from "../../src/config/config";
import { parseCompletionRequest } from "../../src/http/validate/completion-request";
import { optimizeInputOf } from "../../src/pipeline/analyze";
import { RULE_NAMES } from "../../src/pipeline/compress";
import type { OptimizeInput, OptimizeResult } from "../../src/pipeline/optimize-types";
import { ApiError } from "../../src/core/errors";
import { WorkerPool } from "../../workers/pool";

const settings = loadSettings({ ...process.env, SVC_DATA_DIR: mkdtempSync(join(tmpdir(), "svc-deadline-")) });
const models = Catalog.load(settings.modelsFile).models.map((m) => m.id);
const pool = new WorkerPool<OptimizeInput, OptimizeResult>({
  filename: join(import.meta.dir, "../../workers/optimize.worker.ts"),
  threads: 2,
  queueLimit: 1000,
  taskTimeoutMs: Number(process.argv[2]),
  hangMs: 60_000,
  workerData: settings,
});
await pool.warm();
const outcomes: Record<string, number> = {};
const sentence = "Explain how a relay adds latency, and list three numbers: 12, 40 and 7 percent. ";
for (let round = 0; round < 40; round++) {
  await Promise.all(
    Array.from({ length: 16 }, async (_, i) => {
      const req = parseCompletionRequest(
        { model: "auto", messages: [{ role: "user", content: `Request ${round}-${i}. ${sentence.repeat(1 + ((i * 7) % 24))}` }] },
        RULE_NAMES,
      );
      const outcome = await pool.run({ ...optimizeInputOf(req, models, settings.qualityFloor), wantEmbedding: true, countTokens: false }).then(
        () => "ok",
        (e) => (e instanceof ApiError ? e.code : (e as Error).name),
      );
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }),
  );
}
await pool.close();
console.log(JSON.stringify(outcomes));
