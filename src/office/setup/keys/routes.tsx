/**
 * `/office/setup/api-keys` and its form posts: the API's own functions — createKey as
 * `POST /api-keys` runs it (never a scope the member lacks; the body checked by the same schema),
 * revokeKey as `DELETE /api-keys/{id}` does (its next request is a 401) — after the same scope
 * check (`keys:write`: owners), the member the audit's actor. The new key is shown on the page
 * answering the post, never cached, and never put in an address or a cookie.
 */
import { Hono } from "hono";
import { CreateApiKeySchema } from "../../../access/key-schemas";
import { createKey, keyPage, revokeKey } from "../../../access/keys";
import { readForm } from "../../../pages/form";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { setupRefusal, setupWords } from "../guard";
import { saveWith, textOf } from "../save";
import { type KeysState, keysPage } from "./page";
import { byList, tickedOf } from "./parts";
import { keyWordsOf } from "./words";

/** The API keys page and its actions, mounted by setup/routes.tsx. */
export const keyRoutes = new Hono<DeskEnv>();

/** The most a page of the API's list holds: every live key (at most 50) and the newest revoked ones. */
const LISTED = 100;

/** The page with the business's keys, newest first. */
async function show(c: DeskContext, state: KeysState = {}, status: DeskStatus = 200) {
  const { items } = await keyPage(c.var.db, c.var.caller.businessId, { page: 1, limit: LISTED });
  return keysPage(c, items, state, status);
}

keyRoutes.get("/setup/api-keys", async (c) => {
  const denied = await setupRefusal(c, "keys:write", "GET /api-keys");
  if (denied) return denied;
  const done = c.req.query("done") ?? "";
  const saved = keyWordsOf(c.var.desk.locale).saved;
  return show(c, { flash: Object.hasOwn(saved, done) ? saved[done] : undefined });
});

keyRoutes.post("/setup/api-keys", async (c) => {
  const denied = await setupRefusal(c, "keys:write", "POST /api-keys");
  if (denied) return denied;
  const sent = await readForm(c);
  const body = {
    name: textOf(sent, "name"),
    scopes: tickedOf(sent, "scopes"),
    mode: textOf(sent, "mode") || undefined,
  };
  const saved = await saveWith(
    CreateApiKeySchema,
    body,
    (data) => createKey(c.env, c.var.db, c.var.caller, data),
    setupWords(c).fixBelow,
  );
  if (!saved.ok) {
    return show(c, { sent, problems: byList(saved.problems), refused: saved.refused }, saved.status);
  }
  // Shown on this answer only: a reload of the list shows its prefix, never the key.
  c.header("Cache-Control", "no-store");
  return show(c, { created: { name: saved.value.name ?? "", key: saved.value.key } });
});

keyRoutes.post("/setup/api-keys/:id/revoke", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "keys:write", "DELETE /api-keys/:id", id);
  if (denied) return denied;
  await revokeKey(c.env, c.var.db, c.var.caller, id);
  return c.redirect("/office/setup/api-keys?done=revoked", 303);
});
