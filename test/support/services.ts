import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * What some tests need beyond Node and npm, probed once per test run. A test that needs one declares
 * it with `await requires(...)` and skips (with the reason printed once) when it is missing, so
 * `npm test` passes on a fresh clone. CI lists what it brings up in SVC_TEST_REQUIRE (comma-separated
 * names); a required service that is missing fails the test instead of skipping it.
 *
 * - postgres: SVC_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres
 * - redis:    SVC_TEST_REDIS_URL, default redis://127.0.0.1:6379
 * - wrk:      the `wrk` load generator on PATH (the benchmark guard)
 * - chromium: /usr/bin/chromium or `chromium` on PATH
 * - shared:   the shared data folder beside the project (../shared/data and ../shared/models)
 */
export type Need = "postgres" | "redis" | "wrk" | "chromium" | "shared";

const ROOT = join(import.meta.dir, "..", "..");
export const SHARED = join(ROOT, "..", "shared");
export const PG_URL = process.env.SVC_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.SVC_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** Opens a TCP connection to `url`'s host and port; resolves with why it failed, or undefined. */
async function reachable(url: string, defaultPort: number): Promise<string | undefined> {
  const u = new URL(url);
  const hostname = u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1";
  const port = Number(u.port || defaultPort);
  try {
    const socket = await Promise.race([
      Bun.connect({ hostname, port, socket: { data() {} } }),
      Bun.sleep(2_000).then(() => Promise.reject(new Error("no answer within 2 s"))),
    ]);
    socket.end();
    return undefined;
  } catch (e) {
    return `${hostname}:${port} is not reachable (${(e as Error).message})`;
  }
}

const PROBES: Record<Need, () => Promise<string | undefined>> = {
  postgres: async () => {
    const why = await reachable(PG_URL, 5432);
    return why && `PostgreSQL at ${why}; set SVC_TEST_PG_URL or start it`;
  },
  redis: async () => {
    const why = await reachable(REDIS_URL, 6379);
    return why && `Redis at ${why}; set SVC_TEST_REDIS_URL or start it`;
  },
  wrk: async () => (Bun.which("wrk") ? undefined : "wrk is not installed (apt-get install wrk)"),
  chromium: async () => (existsSync("/usr/bin/chromium") || Bun.which("chromium") ? undefined : "Chromium is not installed (apt-get install chromium)"),
  shared: async () => (existsSync(join(SHARED, "data")) ? undefined : `the shared data folder ${SHARED} is not there`),
};

const probed = new Map<Need, Promise<string | undefined>>();

function required(): Set<string> {
  return new Set(
    (process.env.SVC_TEST_REQUIRE ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/**
 * True when every need is there. Otherwise prints which is missing and why (once per need and test
 * run) and answers false for the caller's skipIf, or throws when CI said the need is required.
 */
export async function requires(...needs: Need[]): Promise<boolean> {
  let ok = true;
  for (const need of needs) {
    let first = false;
    if (!probed.has(need)) {
      probed.set(need, PROBES[need]());
      first = true;
    }
    const why = await probed.get(need)!;
    if (why === undefined) continue;
    if (required().has(need)) throw new Error(`${need} is required here (SVC_TEST_REQUIRE) but missing: ${why}`);
    if (first) console.log(`[skip] tests that need ${need} are skipped: ${why}`);
    ok = false;
  }
  return ok;
}
