import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf, keyOf } from "../auth";

/**
 * /api/conversations/{id} (CONTRACT.md): any key of the app reads, an admin key deletes; another app's
 * id is 404. Deleting also drops the conversation's PII placeholder map, stored or not.
 */
export function conversationRoutes(gw: Pick<Services, "keyIndex" | "hash" | "conversations" | "piiMaps">) {
  return new Elysia()
    .get("/api/conversations/:id", ({ request, params }) => gw.conversations.view(keyOf(gw, request).appId, params.id))
    .delete("/api/conversations/:id", async ({ request, params }) => {
      const appId = adminKeyOf(gw, request, "deleting a conversation").appId;
      await gw.piiMaps.delete(appId, params.id);
      return gw.conversations.delete(appId, params.id);
    });
}
