import pkg from "../package.json";
import type { Settings } from "./config/config";
import type { Logger } from "./log/logger";
import { openStore, type Store } from "./store/db";
import { Catalog } from "./catalog/catalog";
import { Plans } from "./auth/plans";
import { keyHasher, loadOrCreateSecret, type KeyHasher } from "./auth/secret";
import { KeyRepository } from "./auth/key-repository";
import { KeyIndex } from "./auth/key-index";
import { KeyService } from "./auth/key-service";
import { Quota } from "./auth/quota";
import { authenticate } from "./auth/authenticate";
import { parseKey } from "./auth/key-format";
import type { KeyEntry } from "./auth/key-record";

export interface HealthCheck {
  ok: boolean;
  detail?: string;
}

/**
 * Everything a request handler needs, built once at start. Routes receive this object; nothing
 * else holds global state.
 */
export class Gateway {
  readonly version: string = pkg.version;
  readonly startedAt = Date.now();
  readonly store: Store;
  readonly catalog: Catalog;
  readonly plans: Plans;
  readonly hash: KeyHasher;
  readonly keyIndex: KeyIndex;
  readonly keys: KeyService;
  readonly quota: Quota;
  private readonly timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    readonly settings: Settings,
    readonly log: Logger,
  ) {
    this.store = openStore(settings.dataDir);
    this.catalog = Catalog.load(settings.modelsFile);
    this.plans = Plans.load(settings.plansFile);
    this.hash = keyHasher(loadOrCreateSecret(settings.dataDir, settings.secret));
    const repo = new KeyRepository(this.store.db);
    this.keyIndex = new KeyIndex(repo);
    this.keyIndex.sync();
    this.keys = new KeyService(repo, this.keyIndex, this.hash, this.plans);
    this.quota = new Quota(this.store.db, this.plans, settings.testKeyDailyCalls);
    if (settings.bootstrapAdminKey) {
      const type = parseKey(settings.bootstrapAdminKey);
      if (!type) throw new Error("SVC_BOOTSTRAP_ADMIN_KEY is not a well-formed svc key (create one with `svc keys create --admin`)");
      this.keys.registerBootstrap(settings.bootstrapAdminKey, type);
    }
  }

  /** Starts the background work: following key changes made elsewhere, and write-behind flushes. */
  startBackground(): void {
    this.timers.push(setInterval(() => this.guard("key sync", () => this.keyIndex.sync()), this.settings.keySyncMs));
    this.timers.push(setInterval(() => this.guard("flush", () => this.flush()), this.settings.flushMs));
    for (const t of this.timers) t.unref?.();
  }

  authenticate(request: Request): KeyEntry {
    return authenticate(request.headers.get("authorization"), this.keyIndex, this.hash, Date.now());
  }

  healthChecks(): Record<string, HealthCheck> {
    let db: HealthCheck;
    try {
      this.store.sqlite.query("SELECT 1").get();
      db = { ok: true };
    } catch (e) {
      db = { ok: false, detail: (e as Error).message };
    }
    return { db, workers: { ok: true, detail: "inline" }, providers: { ok: true, detail: "none configured" } };
  }

  flush(): void {
    this.quota.flush();
    this.keyIndex.flushUsage();
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
    this.guard("final flush", () => this.flush());
    this.store.close();
  }

  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.log.error({ err: { message: (e as Error).message } }, `${what} failed`);
    }
  }
}
