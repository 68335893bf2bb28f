import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { requestIdOf } from "../request-id";
import { keyOf } from "../auth";
import { readJsonBody } from "../body";
import { validationError } from "../../core/errors";
import type { KeyType } from "../../auth/key-format";
import { countField, objectBody, usdField } from "../validate/resource-body";
import { NO_RUN_LIMITS, type KeyRunLimits } from "../../auth/key-record";

interface CreateKeyBody {
  name: string;
  app_id: string;
  type: KeyType;
  scopes: string[];
  plan?: string;
  budget_id?: string;
  agent_run_limits?: Partial<KeyRunLimits>;
}

const RUN_LIMIT_FIELDS = ["max_cost_usd", "max_calls", "max_repeats"] as const;

/**
 * A key's agent-run limits, `{max_cost_usd?, max_calls?, max_repeats?}` in the ranges PUT
 * /api/agent-runs/{id} takes; null sets a field back to the operator's default.
 */
function runLimitsField(v: unknown): Partial<KeyRunLimits> | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw validationError("agent_run_limits", `an object with ${RUN_LIMIT_FIELDS.join(", ")}`);
  const o = v as Record<string, unknown>;
  const b: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    if (!(RUN_LIMIT_FIELDS as readonly string[]).includes(k))
      throw validationError(`agent_run_limits.${k}`, `unknown field; allowed: ${RUN_LIMIT_FIELDS.join(", ")}`);
    b[`agent_run_limits.${k}`] = o[k];
  }
  const field = <T>(name: string, parse: (f: string) => T | undefined): T | null | undefined => (o[name] === null ? null : parse(`agent_run_limits.${name}`));
  const out: Partial<KeyRunLimits> = {};
  const cost = field("max_cost_usd", (f) => usdField(b, f, false));
  const calls = field("max_calls", (f) => countField(b, f, 1, 1_000_000_000));
  const repeats = field("max_repeats", (f) => countField(b, f, 1, 1_000_000));
  if (cost !== undefined) out.maxCostMicros = cost;
  if (calls !== undefined) out.maxCalls = calls;
  if (repeats !== undefined) out.maxRepeats = repeats;
  return out;
}

/** A key's default budget: a budget id of the key's app, or (when changing it) null for none. */
function budgetIdField(v: unknown, nullable: boolean): string | null | undefined {
  if (v === undefined || (nullable && v === null)) return v;
  if (typeof v !== "string" || v.trim() === "" || v.length > 200)
    throw validationError("budget_id", nullable ? "a budget id, or null for none" : "a budget id");
  return v;
}

function parseCreateKey(body: unknown): CreateKeyBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("body", "must be a JSON object");
  const b = body as Record<string, unknown>;
  const str = (field: string, max: number) => {
    const v = b[field];
    if (typeof v !== "string" || v.trim() === "") throw validationError(field, "required, a non-empty string");
    if (v.length > max) throw validationError(field, `at most ${max} characters`);
    return v;
  };
  const name = str("name", 200);
  const app_id = str("app_id", 200);
  const type = b.type ?? "live";
  if (type !== "live" && type !== "test") throw validationError("type", "must be 'live' or 'test'");
  const scopes = b.scopes ?? ["complete"];
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === "string")) throw validationError("scopes", "must be an array of strings");
  if (b.plan !== undefined && typeof b.plan !== "string") throw validationError("plan", "must be a string");
  for (const k of Object.keys(b)) {
    if (!["name", "app_id", "type", "scopes", "plan", "budget_id", "agent_run_limits"].includes(k)) throw validationError(k, "unknown field");
  }
  const budget_id = budgetIdField(b.budget_id, false) ?? undefined;
  const agent_run_limits = runLimitsField(b.agent_run_limits);
  return {
    name,
    app_id,
    type,
    scopes,
    plan: b.plan as string | undefined,
    ...(budget_id !== undefined && { budget_id }),
    ...(agent_run_limits && { agent_run_limits }),
  };
}

/** POST/GET/DELETE /api/keys: admin-scoped, each key confined to its own app_id. */
export function keyRoutes(gw: Pick<Services, "keyIndex" | "hash" | "keys" | "log" | "settings">) {
  return new Elysia()
    .post(
      "/api/keys",
      async ({ request, set }) => {
        const actor = keyOf(gw, request);
        const body = parseCreateKey(await readJsonBody(request, gw.settings.maxBodyBytes));
        const created = await gw.keys.create(actor, {
          name: body.name,
          appId: body.app_id,
          type: body.type,
          scopes: body.scopes,
          plan: body.plan,
          ...(body.budget_id !== undefined && { budgetId: body.budget_id }),
          ...(body.agent_run_limits && { runLimits: { ...NO_RUN_LIMITS, ...body.agent_run_limits } }),
        });
        gw.log.info({ request_id: requestIdOf(request), key_id: created.id, app_id: created.app_id, type: created.type }, "key created");
        set.status = 201;
        return created;
      },
      { parse: "none" },
    )
    .get("/api/keys", async ({ request }) => {
      const actor = keyOf(gw, request);
      return { object: "list", data: await gw.keys.list(actor) };
    })
    .patch(
      "/api/keys/:id",
      async ({ request, params }) => {
        const actor = keyOf(gw, request);
        const b = objectBody(await readJsonBody(request, gw.settings.maxBodyBytes), ["budget_id", "agent_run_limits"]);
        if (Object.keys(b).length === 0) throw validationError("body", "nothing to change: budget_id and/or agent_run_limits");
        const budgetId = budgetIdField(b.budget_id, true);
        const runLimits = runLimitsField(b.agent_run_limits);
        const changed = await gw.keys.setDefaults(actor, params.id, { ...(budgetId !== undefined && { budgetId }), ...(runLimits && { runLimits }) });
        gw.log.info(
          { request_id: requestIdOf(request), key_id: changed.id, budget_id: changed.budget_id, agent_run_limits: changed.agent_run_limits },
          "key's defaults changed",
        );
        return changed;
      },
      { parse: "none" },
    )
    .delete("/api/keys/:id", async ({ request, params }) => {
      const actor = keyOf(gw, request);
      const revoked = await gw.keys.revoke(actor, params.id);
      gw.log.info({ request_id: requestIdOf(request), key_id: revoked.id, app_id: revoked.app_id }, "key revoked");
      return revoked;
    });
}
