/**
 * `/office/setup/webhooks` and its form posts: the API's own functions — registerEndpoint as
 * `POST /webhooks` runs it (the body checked by the same schema, so the same public-HTTPS rules
 * refuse a private or local address), deleteEndpoint as `DELETE /webhooks/{id}` does (no more
 * deliveries) — after the same scope check (`business:write`: owners), the member the audit's
 * actor. The signing secret is shown on the page answering the post, never cached, never in an
 * address or a cookie; the form sent again registers no second endpoint (keys/once.ts). A deletion
 * is asked first on a page of its own (GET), whose form posts it.
 */
import { Hono } from "hono";
import { actorOf } from "../../../access/actor";
import { readForm } from "../../../pages/form";
import {
  deleteEndpoint,
  endpointPage,
  loadEndpoint,
  MAX_WEBHOOK_ENDPOINTS,
  registerEndpoint,
} from "../../../webhooks/endpoints";
import { CreateWebhookSchema } from "../../../webhooks/schemas";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import { flashOf } from "../../frame/flash";
import type { DeskStatus } from "../../frame/layout";
import { confirmPage } from "../frame";
import { setupRefusal } from "../guard";
import { makeOnce } from "../keys/once";
import { byList, tickedOf } from "../keys/parts";
import { orNull, textOf } from "../save";
import { type WebhooksState, webhooksPage } from "./page";
import { webhookWordsOf } from "./words";

/** The webhooks page and its actions, mounted by setup/routes.tsx. */
export const webhookRoutes = new Hono<DeskEnv>();

/** The page with the business's endpoints (every one: a business has at most 20), newest first. */
async function show(c: DeskContext, state: WebhooksState = {}, status: DeskStatus = 200) {
  const page = { page: 1, limit: MAX_WEBHOOK_ENDPOINTS };
  const { items } = await endpointPage(c.var.db, c.var.caller.businessId, page);
  return webhooksPage(c, items, state, status);
}

webhookRoutes.get("/setup/webhooks", async (c) => {
  const denied = await setupRefusal(c, "business:write", "GET /webhooks");
  if (denied) return denied;
  return show(c, { flash: flashOf(c, webhookWordsOf(c.var.desk.locale).saved) });
});

webhookRoutes.post("/setup/webhooks", async (c) => {
  const denied = await setupRefusal(c, "business:write", "POST /webhooks");
  if (denied) return denied;
  const sent = await readForm(c);
  const body = {
    url: textOf(sent, "url"),
    events: tickedOf(sent, "events"),
    description: orNull(sent, "description") ?? undefined,
  };
  const { businessId } = c.var.caller;
  const saved = await makeOnce(c, sent, "webhook", CreateWebhookSchema, body, async (data) => {
    const made = await registerEndpoint(c.env, c.var.db, { businessId, actor: actorOf(c.var.caller) }, data);
    return { shown: { url: made.url }, secret: made.secret };
  });
  if (!saved.ok) {
    return show(c, { sent, problems: byList(saved.problems), refused: saved.refused }, saved.status);
  }
  // Shown on this answer only: the list never shows a secret.
  c.header("Cache-Control", "no-store");
  const made = saved.value;
  const ww = webhookWordsOf(c.var.desk.locale);
  if (made.kind === "reused") return show(c, { sent, refused: ww.formUsed }, 409);
  if (made.kind === "resent") return show(c, { resent: ww.resent(made.shown.url) });
  return show(c, { created: { url: made.shown.url, secret: made.secret } });
});

webhookRoutes.get("/setup/webhooks/:id/delete", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "business:write", "DELETE /webhooks/:id", id);
  if (denied) return denied;
  const hook = await loadEndpoint(c.var.db, c.var.caller.businessId, id);
  const ww = webhookWordsOf(c.var.desk.locale);
  return confirmPage(c, {
    title: ww.confirmTitle(hook.url),
    text: ww.confirmText,
    action: `/office/setup/webhooks/${hook.id}/delete`,
    confirm: ww.removeEndpoint,
    back: { href: "/office/setup/webhooks", label: ww.title },
  });
});

webhookRoutes.post("/setup/webhooks/:id/delete", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "business:write", "DELETE /webhooks/:id", id);
  if (denied) return denied;
  await deleteEndpoint(c.var.db, c.var.caller.businessId, id, actorOf(c.var.caller));
  return c.redirect("/office/setup/webhooks?done=deleted", 303);
});
