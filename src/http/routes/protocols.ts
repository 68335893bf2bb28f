import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf, keyOf } from "../auth";
import { readJsonBody } from "../body";
import { validationError } from "../../core/errors";

const MAX_NAME = 200;

function objectBody(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw validationError("body", "must be a JSON object");
  for (const k of Object.keys(body)) if (!allowed.includes(k)) throw validationError(k, `unknown field; valid: ${allowed.join(", ")}`);
  return body as Record<string, unknown>;
}

function text(b: Record<string, unknown>, field: string, max: number): string {
  const v = b[field];
  if (typeof v !== "string" || v.trim() === "") throw validationError(field, "required, a non-empty string");
  if (v.length > max) throw validationError(field, `at most ${max} characters`);
  return v;
}

/** /api/protocols (CONTRACT.md): any key of the app reads, an admin key of the app writes; another app's id is 404. */
export function protocolRoutes(gw: Pick<Services, "keyIndex" | "hash" | "protocols" | "settings">) {
  const maxContent = gw.settings.maxBodyBytes;
  return new Elysia()
    .post(
      "/api/protocols",
      async ({ request, set }) => {
        const key = adminKeyOf(gw, request, "registering a protocol");
        const b = objectBody(await readJsonBody(request, gw.settings.maxBodyBytes), ["name", "content"]);
        const created = await gw.protocols.create(key.appId, text(b, "name", MAX_NAME), text(b, "content", maxContent));
        set.status = 201;
        return created;
      },
      { parse: "none" },
    )
    .get("/api/protocols", async ({ request }) => ({ object: "list", data: await gw.protocols.list(keyOf(gw, request).appId) }))
    .get("/api/protocols/:id", ({ request, params }) => gw.protocols.get(keyOf(gw, request).appId, params.id))
    .put(
      "/api/protocols/:id",
      async ({ request, params }) => {
        const key = adminKeyOf(gw, request, "changing a protocol");
        const b = objectBody(await readJsonBody(request, gw.settings.maxBodyBytes), ["content"]);
        return gw.protocols.update(key.appId, params.id, text(b, "content", maxContent));
      },
      { parse: "none" },
    )
    .delete("/api/protocols/:id", ({ request, params }) => gw.protocols.delete(adminKeyOf(gw, request, "deleting a protocol").appId, params.id));
}
