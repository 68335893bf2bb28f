import { Elysia } from "elysia";
import type { Services } from "../../pipeline/services";
import { adminKeyOf, keyOf } from "../auth";

/** /api/conversations/{id} (CONTRACT.md): any key of the app reads, an admin key deletes; another app's id is 404. */
export function conversationRoutes(gw: Pick<Services, "keyIndex" | "hash" | "conversations">) {
  return new Elysia()
    .get("/api/conversations/:id", ({ request, params }) => gw.conversations.view(keyOf(gw, request).appId, params.id))
    .delete("/api/conversations/:id", ({ request, params }) => gw.conversations.delete(adminKeyOf(gw, request, "deleting a conversation").appId, params.id));
}
