import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** The README's quick start, pasted as one script into a shell as a new user would (issue 27: it failed with INVALID_KEY). */
test("the README's quick start works pasted as one script", async () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /<!-- quick-start[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const dataDir = mkdtempSync(join(tmpdir(), "svc-quickstart-"));
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  // setsid: the script and the gateway it starts share a new process group, ended as one below.
  const proc = Bun.spawn(["setsid", "bash", "-e", "-c", block!], {
    cwd: ROOT,
    env: { ...process.env, SVC_PORT: port, SVC_DATA_DIR: dataDir, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "", GEMINI_API_KEY: "" },
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    const [out, err] = await Promise.race([
      Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]),
      Bun.sleep(50_000).then(() => ["", "timed out"]),
    ]);
    const body = JSON.parse(out || "{}") as { choices?: { message: { content: string } }[]; error?: unknown; svc_meta?: { simulated?: boolean } };
    expect(body.error).toBeUndefined();
    expect(body.choices?.[0]?.message.content, err).toBeString();
    expect(body.svc_meta?.simulated).toBe(true);
  } finally {
    try {
      process.kill(-proc.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
