/**
 * `/office/setup/api-keys` and its form posts: the API's own functions — createKey as
 * `POST /api-keys` runs it (never a scope the member lacks; the body checked by the same schema),
 * revokeKey as `DELETE /api-keys/{id}` does (its next request is a 401) — after the same scope
 * check (`keys:write`: owners), the member the audit's actor. The new key is shown on the page
 * answering the post, never cached, and never put in an address or a cookie; the form sent again
 * makes no second key (once.ts). A revocation is asked first on a page of its own (GET), whose
 * form posts it.
 */
import { Hono } from "hono";
import { CreateApiKeySchema } from "../../../access/key-schemas";
import { createKey, keyOf, keyPage, revokeKey } from "../../../access/keys";
import { readForm } from "../../../pages/form";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import { flashOf } from "../../frame/flash";
import type { DeskStatus } from "../../frame/layout";
import { confirmPage } from "../frame";
import { setupRefusal } from "../guard";
import { textOf } from "../save";
import { makeOnce } from "./once";
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
  return show(c, { flash: flashOf(c, keyWordsOf(c.var.desk.locale).saved) });
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
  const saved = await makeOnce(c, sent, "api-key", CreateApiKeySchema, body, async (data) => {
    const made = await createKey(c.env, c.var.db, c.var.caller, data);
    return { shown: { name: made.name ?? made.prefix }, secret: made.key };
  });
  if (!saved.ok) {
    return show(c, { sent, problems: byList(saved.problems), refused: saved.refused }, saved.status);
  }
  // Shown on this answer only: a reload of the list shows its prefix, never the key.
  c.header("Cache-Control", "no-store");
  const made = saved.value;
  const kw = keyWordsOf(c.var.desk.locale);
  if (made.kind === "reused") return show(c, { sent, refused: kw.formUsed }, 409);
  if (made.kind === "resent") return show(c, { resent: kw.resent(made.shown.name) });
  return show(c, { created: { name: made.shown.name, key: made.secret } });
});

keyRoutes.get("/setup/api-keys/:id/revoke", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "keys:write", "DELETE /api-keys/:id", id);
  if (denied) return denied;
  const key = await keyOf(c.var.db, c.var.caller.businessId, id);
  const kw = keyWordsOf(c.var.desk.locale);
  const live = key.revokedAt === null;
  return confirmPage(c, {
    title: kw.confirmTitle(key.name ?? key.prefix),
    text: live ? kw.confirmText : kw.alreadyRevoked,
    action: live ? `/office/setup/api-keys/${key.id}/revoke` : undefined,
    confirm: kw.revokeKey,
    back: { href: "/office/setup/api-keys", label: kw.title },
  });
});

keyRoutes.post("/setup/api-keys/:id/revoke", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "keys:write", "DELETE /api-keys/:id", id);
  if (denied) return denied;
  await revokeKey(c.env, c.var.db, c.var.caller, id);
  return c.redirect("/office/setup/api-keys?done=revoked", 303);
});
