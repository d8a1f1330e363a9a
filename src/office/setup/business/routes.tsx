/**
 * `/office/setup/business` and its form post: the API's own business update (editBusiness, as
 * `PATCH /business` runs it) after the same scope check (`business:write`: owners), with the
 * body checked by the same schema, only the fields that changed sent (so the audit, whose actor is
 * the member, names just those), under `If-Match` of the version the form was made from.
 * Done: 303 back with a flash. Refused: the page again (422, 409 for a slug taken or a change
 * made meanwhile) with the problems at their fields.
 */
import { Hono } from "hono";
import { actorOf } from "../../../access/actor";
import { editBusiness, loadBusiness } from "../../../business/records";
import { UpdateBusinessSchema } from "../../../business/schemas";
import { etagOf } from "../../../lib/etag";
import { forgetCallersOf } from "../../../middleware/key-check";
import { type FormFields, readForm } from "../../../pages/form";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import { flashOf } from "../../frame/flash";
import { setupRefusal } from "../guard";
import { changedOnly, orNull, saveWith, textOf, ticked } from "../save";
import { businessPage } from "./page";
import { businessWordsOf } from "./words";

/** The business page, mounted by setup/routes.tsx. */
export const businessRoutes = new Hono<DeskEnv>();

const refusal = (c: DeskContext) => setupRefusal(c, "business:write", "PATCH /business");

businessRoutes.get("/setup/business", async (c) => {
  const denied = await refusal(c);
  if (denied) return denied;
  const row = await loadBusiness(c.var.db, c.var.caller.businessId);
  return businessPage(c, row, { flash: flashOf(c, businessWordsOf(c.var.desk.locale).saved) });
});

/** The form as `PATCH /business`'s body: empty optional texts absent (or null where the API takes null). */
function bodyOf(f: FormFields) {
  const optional = (name: string) => textOf(f, name) || undefined;
  return {
    name: textOf(f, "name"),
    slug: orNull(f, "slug"),
    timezone: textOf(f, "timezone"),
    locale: textOf(f, "locale"),
    contactEmail: orNull(f, "contactEmail"),
    bookingPage: {
      enabled: ticked(f, "bookingPage.enabled"),
      title: optional("bookingPage.title"),
      accentColor: optional("bookingPage.accentColor"),
    },
    emails: {
      enabled: ticked(f, "emails.enabled"),
      fromName: optional("emails.fromName"),
      replyTo: optional("emails.replyTo"),
    },
    conflicts: { notifyCustomer: ticked(f, "conflicts.notifyCustomer") },
  };
}

/** An object without its undefined keys, as the stored settings are compared (JSON drops them too). */
const defined = (value: object) => JSON.parse(JSON.stringify(value));

businessRoutes.post("/setup/business", async (c) => {
  const denied = await refusal(c);
  if (denied) return denied;
  const sent = await readForm(c);
  const { businessId } = c.var.caller;
  const stored = await loadBusiness(c.var.db, businessId);
  const changes = changedOnly(defined(bodyOf(sent)), defined(stored));
  if (Object.keys(changes).length === 0) return c.redirect("/office/setup/business?done=unchanged", 303);
  const ifMatch = [etagOf(Number(sent.version ?? stored.version))];
  const saved = await saveWith(c, UpdateBusinessSchema, changes, (body) =>
    editBusiness(c.env, c.var.db, businessId, { changes: body, ifMatch, actor: actorOf(c.var.caller) }),
  );
  if (!saved.ok) {
    const { problems, refused, status } = saved;
    return businessPage(c, stored, { sent, problems, refused }, status);
  }
  // As the API's route does: keys and sessions read the business's name and settings anew.
  forgetCallersOf(businessId);
  return c.redirect("/office/setup/business?done=saved", 303);
});
