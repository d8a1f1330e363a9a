/**
 * `/office/setup/services` (active and inactive), `/office/setup/services/new` and
 * `/office/setup/services/{id}`, and their form posts: the API's own functions — addService as
 * `POST /services` runs it, editService as `PATCH /services/{id}` does (only the fields that
 * changed, under `If-Match` of the version read) — after the same scope check (`catalog:write`:
 * owners), the bodies checked by the same schemas, the member the audit's actor.
 * Done: 303 with a flash. Refused: the form again (422, 409 for a conflict) with the problems at their fields.
 */
import { Hono } from "hono";
import { actorOf } from "../../../access/actor";
import { etagOf } from "../../../lib/etag";
import { readForm } from "../../../pages/form";
import { CreateServiceSchema, UpdateServiceSchema } from "../../../schemas/services";
import { editService } from "../../../services/edit";
import { addService, findService } from "../../../services/records";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import { flashOf } from "../../frame/flash";
import type { DeskStatus } from "../../frame/layout";
import { catalogPage, weekFields } from "../catalog-parts";
import { setupRefusal, setupWords } from "../guard";
import { fieldOfProblem } from "../hours";
import { providersOf, roomsOf, servicesOf } from "../providers";
import { changedOnly, saveWith } from "../save";
import { type ServiceState, serviceFields, serviceFormPage } from "./form-page";
import { readService, serviceField } from "./read";
import { serviceWordsOf } from "./words";

/** The services pages, mounted by setup/routes.tsx. */
export const serviceRoutes = new Hono<DeskEnv>();

const words = (c: DeskContext) => serviceWordsOf(c.var.desk.locale);
const choicesOf = async (c: DeskContext) => ({ people: await providersOf(c), rooms: await roomsOf(c) });

serviceRoutes.get("/setup/services", async (c) => {
  const denied = await setupRefusal(c, "catalog:write", "POST /services");
  if (denied) return denied;
  const sw = words(c);
  const items = (await servicesOf(c)).map((s) => ({
    href: `/office/setup/services/${s.id}`,
    name: s.name,
    detail: sw.minutes(s.minutes),
    active: s.active,
  }));
  return catalogPage(c, sw, "/office/setup/services/new", items, flashOf(c, words(c).saved));
});

/** A new service's form: the business's zone, weekdays 09:00–17:00, 30 minutes. */
serviceRoutes.get("/setup/services/new", async (c) => {
  const denied = await setupRefusal(c, "catalog:write", "POST /services");
  if (denied) return denied;
  const day = [{ start: "09:00", end: "17:00" }];
  const week = { mon: day, tue: day, wed: day, thu: day, fri: day };
  const fields = { timezone: c.var.desk.timezone, durationMinutes: "30", capacity: "1", ...weekFields(week) };
  // Ticked: a business setting up its office wants its services on its page (the API, asked nothing, offers none).
  return serviceFormPage(
    c,
    { ...fields, providerMode: "one", assignment: "first", bookableOnline: "on" },
    await choicesOf(c),
  );
});

serviceRoutes.post("/setup/services", async (c) => {
  const denied = await setupRefusal(c, "catalog:write", "POST /services");
  if (denied) return denied;
  const sent = await readForm(c);
  const read = readService(sent, words(c), setupWords(c).person.badInterval);
  const { businessId } = c.var.caller;
  const saved = await saveWith(
    c,
    CreateServiceSchema,
    read.body,
    (body) => addService(c.var.db, businessId, body, actorOf(c.var.caller)),
    read.problems,
  );
  if (saved.ok) return c.redirect(`/office/setup/services/${saved.value.id}?done=created`, 303);
  const problems = placed(saved.problems, read.slots);
  return serviceFormPage(c, sent, await choicesOf(c), undefined, { ...saved, problems }, saved.status);
});

/** The API's problems moved to the form's fields (an interval's to its slot). */
const placed = (problems: Record<string, string>, slots: Parameters<typeof fieldOfProblem>[1]) => {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(problems))
    out[serviceField(path, slots, fieldOfProblem) ?? path] ??= message;
  return out;
};

/** The service's edit page, after the role check for changing it. */
async function editPage(c: DeskContext, state: ServiceState = {}, status: DeskStatus = 200) {
  const id = c.req.param("id") ?? "";
  const denied = await setupRefusal(c, "catalog:write", "PATCH /services/:id", id);
  if (denied) return denied;
  const { service } = await findService(c.var.db, c.var.caller.businessId, id);
  return serviceFormPage(c, serviceFields(service), await choicesOf(c), service, state, status);
}

serviceRoutes.get("/setup/services/:id", (c) => editPage(c, { flash: flashOf(c, words(c).saved) }));

/** Runs `PATCH /services/{id}` with what changed of `next`; undefined when saved, else the refusal. */
async function patch(c: DeskContext, next: Record<string, unknown>, problems: Record<string, string> = {}) {
  const id = c.req.param("id") ?? "";
  const { businessId } = c.var.caller;
  const { service, version } = await findService(c.var.db, businessId, id);
  const changes = changedOnly(next, service);
  if (Object.keys(changes).length === 0 && Object.keys(problems).length === 0) return { service, unchanged: true };
  const saved = await saveWith(
    c,
    UpdateServiceSchema,
    changes,
    (body) => editService(c.env, c.var.db, businessId, id, body, [etagOf(version)], actorOf(c.var.caller)),
    problems,
  );
  return { service, saved };
}

serviceRoutes.post("/setup/services/:id", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "catalog:write", "PATCH /services/:id", id);
  if (denied) return denied;
  const sent = await readForm(c);
  const read = readService(sent, words(c), setupWords(c).person.badInterval);
  // An empty description is null as stored; an empty number leaves the stored one.
  const outcome = await patch(c, read.body, read.problems);
  if (!outcome.saved) return c.redirect(`/office/setup/services/${id}?done=unchanged`, 303);
  if (outcome.saved.ok) return c.redirect(`/office/setup/services/${id}?done=saved`, 303);
  const { refused, status } = outcome.saved;
  const problems = placed(outcome.saved.problems, read.slots);
  return serviceFormPage(c, sent, await choicesOf(c), outcome.service, { refused, problems }, status);
});

serviceRoutes.post("/setup/services/:id/active", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "catalog:write", "PATCH /services/:id", id);
  if (denied) return denied;
  const active = (await readForm(c)).active === "true";
  const outcome = await patch(c, { active });
  if (outcome.saved && !outcome.saved.ok) return editPage(c, { refused: outcome.saved.refused }, outcome.saved.status);
  return c.redirect(`/office/setup/services/${id}?done=${active ? "activated" : "deactivated"}`, 303);
});
