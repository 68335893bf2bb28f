import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";

export interface HealthCheck {
  ok: boolean;
  detail?: string;
}

type HealthOf = Pick<Services, "store" | "optimizer" | "providers" | "ledger" | "counters" | "redis">;

/** How long /health waits for PostgreSQL's answer before it says the store does not answer. */
const DB_CHECK_TIMEOUT_MS = 2000;

/** A read the store answers now: SQLite's own, or a round trip to PostgreSQL within DB_CHECK_TIMEOUT_MS. */
async function storeAnswers(store: Services["store"]): Promise<void> {
  if (store.dialect === "sqlite") {
    store.sqlite.query("SELECT 1").get();
    return;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      store.sql`SELECT 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${DB_CHECK_TIMEOUT_MS} ms`)), DB_CHECK_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function healthChecks(gw: HealthOf): Promise<Record<string, HealthCheck>> {
  let db: HealthCheck;
  try {
    await storeAnswers(gw.store);
    // The store answers reads but may refuse writes (full, locked): the ledger and the counters say so.
    const problem = gw.ledger.healthy ? gw.counters.problem : (gw.ledger.problem ?? `${gw.ledger.pending} usage rows wait for the store`);
    db = problem ? { ok: false, detail: problem } : { ok: true };
  } catch (e) {
    db = { ok: false, detail: (e as Error).message };
  }
  const status = gw.providers.status();
  const providers: HealthCheck = {
    ok: status.some((p) => p.healthy),
    detail: status.map((p) => `${p.name}${p.simulated ? " (simulated)" : ""}: ${p.healthy ? "healthy" : "unhealthy"}`).join(", "),
  };
  // Without Redis a node refuses quota-limited calls (503) and serves the rest; a load balancer may take it out.
  const redis: Record<string, HealthCheck> = gw.redis ? { redis: gw.redis.healthy ? { ok: true } : { ok: false, detail: gw.redis.problem } } : {};
  return { db, workers: gw.optimizer.health(), providers, ...redis };
}

/** GET /health: unauthenticated; 503 when a check fails so load balancers take the node out. */
export function healthRoutes(gw: HealthOf & Pick<Services, "version" | "startedAt">) {
  return new Elysia().get("/health", async ({ set }) => {
    const checks = await healthChecks(gw);
    const ok = Object.values(checks).every((c) => c.ok);
    set.status = ok ? 200 : 503;
    return { status: ok ? "ok" : "degraded", version: gw.version, uptime_s: Math.floor((Date.now() - gw.startedAt) / 1000), checks };
  });
}
