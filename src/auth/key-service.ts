import { randomBytes } from "node:crypto";
import { ApiError, validationError } from "../core/errors";
import { generateKey, type KeyType } from "./key-format";
import type { KeyHasher } from "./secret";
import type { KeyIndex } from "./key-index";
import type { KeyRepository } from "./key-repository";
import { NO_RUN_LIMITS, SCOPES, viewOf, type KeyEntry, type KeyRecordView, type KeyRunLimits } from "./key-record";
import type { Plans } from "./plans";

export interface CreateKeyInput {
  name: string;
  appId: string;
  type: KeyType;
  scopes: string[];
  plan?: string;
  /** The key's default budget, a budget of `appId`. */
  budgetId?: string;
  runLimits?: KeyRunLimits;
}

/** A change of a key's defaults: a field left out stays as it is; null clears it. */
export interface KeyDefaultsPatch {
  budgetId?: string | null;
  runLimits?: Partial<KeyRunLimits>;
}

/** The creator's rights, or "operator" for the CLI, which works on the store directly. */
export type Actor = KeyEntry | "operator";

const ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
function newKeyId(): string {
  let s = "key_";
  for (const b of randomBytes(16)) s += ID_ALPHABET[b % 36];
  return s;
}

/**
 * Creating, listing and revoking keys, with the contract's rules: managing keys needs the `admin`
 * scope, a key sees only keys of its own app_id, a test key creates only test keys, and a key never
 * grants scopes it does not have. Shared by the HTTP routes and the CLI.
 */
export class KeyService {
  constructor(
    private readonly repo: KeyRepository,
    private readonly index: KeyIndex,
    private readonly hash: KeyHasher,
    private readonly plans: Plans,
    /** Whether `appId` has a budget `id`: a key is bound only to a budget of its own app. */
    private readonly budgetExists: (appId: string, id: string) => Promise<boolean>,
  ) {}

  async create(actor: Actor, input: CreateKeyInput): Promise<KeyRecordView & { key: string }> {
    for (const s of input.scopes) {
      if (!(SCOPES as readonly string[]).includes(s)) throw validationError("scopes", `unknown scope '${s}'; valid: ${SCOPES.join(", ")}`);
    }
    const plan = input.plan ?? this.plans.defaultPlan;
    if (!this.plans.has(plan)) throw validationError("plan", `unknown plan '${plan}'; valid: ${this.plans.ids.join(", ")}`);
    if (input.budgetId !== undefined) await this.requireBudget(input.appId, input.budgetId);
    if (actor !== "operator") {
      this.requireAdmin(actor);
      if (actor.appId !== input.appId) throw new ApiError("FORBIDDEN", `this key manages keys of app_id '${actor.appId}' only`);
      if (actor.type === "test" && input.type !== "test") throw new ApiError("FORBIDDEN", "a test key can only create test keys");
      const missing = input.scopes.filter((s) => !actor.scopes.includes(s));
      if (missing.length) throw new ApiError("FORBIDDEN", `cannot grant scopes this key lacks: ${missing.join(", ")}`);
    }
    const value = generateKey(input.type);
    const entry: KeyEntry = {
      id: newKeyId(),
      name: input.name,
      appId: input.appId,
      type: input.type,
      prefix: value.slice(0, 12),
      last4: value.slice(-4),
      hash: this.hash(value),
      status: "active",
      scopes: [...new Set(input.scopes)].sort(),
      plan,
      createdAt: Date.now(),
      lastUsedAt: null,
      revokedAt: null,
      budgetId: input.budgetId ?? null,
      runLimits: input.runLimits ?? NO_RUN_LIMITS,
    };
    await this.repo.insert(entry);
    this.index.changed(entry);
    return { ...viewOf(entry), key: value };
  }

  /** Registers a key value chosen by the operator (SVC_BOOTSTRAP_ADMIN_KEY); a no-op when it exists. */
  async registerBootstrap(value: string, type: KeyType): Promise<void> {
    const hash = this.hash(value);
    if (this.index.lookup(hash)) return;
    const entry: KeyEntry = {
      id: newKeyId(),
      name: "bootstrap admin",
      appId: "default",
      type,
      prefix: value.slice(0, 12),
      last4: value.slice(-4),
      hash,
      status: "active",
      scopes: ["admin", "complete"],
      plan: this.plans.defaultPlan,
      createdAt: Date.now(),
      lastUsedAt: null,
      revokedAt: null,
      budgetId: null,
      runLimits: NO_RUN_LIMITS,
    };
    await this.repo.insert(entry);
    this.index.changed(entry);
  }

  async list(actor: Actor, appId?: string): Promise<KeyRecordView[]> {
    if (actor !== "operator") this.requireAdmin(actor);
    const app = actor === "operator" ? appId : actor.appId;
    if (app === undefined) throw validationError("app_id", "required");
    return (await this.repo.listByApp(app)).map((e) => viewOf(this.index.get(e.id) ?? e));
  }

  async revoke(actor: Actor, id: string): Promise<KeyRecordView> {
    if (actor !== "operator") this.requireAdmin(actor);
    const found = await this.owned(actor, id);
    if (found.status === "revoked") return viewOf(found);
    const at = Date.now();
    await this.repo.revoke(id, at);
    const revoked: KeyEntry = { ...found, status: "revoked", revokedAt: at };
    this.index.changed(revoked);
    return viewOf(revoked);
  }

  /**
   * Changes a key's defaults: the budget its calls are charged on when they name none (a budget of its
   * app; null unbinds it) and its agent-run limits. Other processes see it at their next key sync.
   */
  async setDefaults(actor: Actor, id: string, patch: KeyDefaultsPatch): Promise<KeyRecordView> {
    if (actor !== "operator") this.requireAdmin(actor);
    const found = await this.owned(actor, id);
    if (typeof patch.budgetId === "string") await this.requireBudget(found.appId, patch.budgetId);
    const budgetId = patch.budgetId === undefined ? found.budgetId : patch.budgetId;
    const runLimits = { ...found.runLimits, ...patch.runLimits };
    await this.repo.setDefaults(id, budgetId, runLimits);
    const changed: KeyEntry = { ...(this.index.get(id) ?? found), budgetId, runLimits };
    this.index.put(changed);
    return viewOf(changed);
  }

  /** A budget is being deleted: keys bound to it go back to no default, here at once and elsewhere at the next key sync. */
  async unbindBudget(budgetId: string): Promise<void> {
    for (const id of await this.repo.unbindBudget(budgetId)) {
      const e = this.index.get(id);
      if (e) this.index.put({ ...e, budgetId: null });
    }
  }

  private async owned(actor: Actor, id: string): Promise<KeyEntry> {
    const found = await this.repo.get(id);
    if (!found) throw new ApiError("NOT_FOUND", `no key '${id}'`);
    if (actor !== "operator" && found.appId !== actor.appId) throw new ApiError("FORBIDDEN", `key '${id}' belongs to another app_id`);
    return found;
  }

  private async requireBudget(appId: string, budgetId: string): Promise<void> {
    if (!(await this.budgetExists(appId, budgetId))) throw new ApiError("NOT_FOUND", `no budget '${budgetId}' in app_id '${appId}'`, { param: "budget_id" });
  }

  private requireAdmin(actor: KeyEntry): void {
    if (!actor.scopes.includes("admin")) throw new ApiError("FORBIDDEN", "this key lacks the 'admin' scope needed to manage keys");
  }
}
