import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { requestIdOf } from "../request-id";
import { keyOf } from "../auth";
import { readJsonBody } from "../body";
import { validationError } from "../../core/errors";
import type { KeyType } from "../../auth/key-format";

interface CreateKeyBody {
  name: string;
  app_id: string;
  type: KeyType;
  scopes: string[];
  plan?: string;
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
    if (!["name", "app_id", "type", "scopes", "plan"].includes(k)) throw validationError(k, "unknown field");
  }
  return { name, app_id, type, scopes, plan: b.plan as string | undefined };
}

/** POST/GET/DELETE /api/keys: admin-scoped, each key confined to its own app_id. */
export function keyRoutes(gw: Pick<Services, "keyIndex" | "hash" | "keys" | "log" | "settings">) {
  return new Elysia()
    .post(
      "/api/keys",
      async ({ request, set }) => {
        const actor = keyOf(gw, request);
        const body = parseCreateKey(await readJsonBody(request, gw.settings.maxBodyBytes));
        const created = await gw.keys.create(actor, { name: body.name, appId: body.app_id, type: body.type, scopes: body.scopes, plan: body.plan });
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
    .delete("/api/keys/:id", async ({ request, params }) => {
      const actor = keyOf(gw, request);
      const revoked = await gw.keys.revoke(actor, params.id);
      gw.log.info({ request_id: requestIdOf(request), key_id: revoked.id, app_id: revoked.app_id }, "key revoked");
      return revoked;
    });
}
