/**
 * `/office/setup/rooms` (active and inactive), `/office/setup/rooms/new` and
 * `/office/setup/rooms/{id}`, and their form posts: the API's own functions — addResource as
 * `POST /resources` runs it, editResource as `PATCH /resources/{id}` does (only the fields that
 * changed, under `If-Match` of the version read) — after the same scope check (`catalog:write`:
 * owners), the bodies checked by the same schemas, the member the audit's actor. Fewer units
 * than upcoming bookings need is the API's 409, shown with its reason.
 */
import { Hono } from "hono";
import { actorOf } from "../../../access/actor";
import { etagOf } from "../../../lib/etag";
import { type FormFields, readForm } from "../../../pages/form";
import { editResource } from "../../../resources/edit";
import { addResource, loadResource, toResource } from "../../../resources/records";
import { CreateResourceSchema, UpdateResourceSchema } from "../../../schemas/resources";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import { flashOf } from "../../frame/flash";
import type { DeskStatus } from "../../frame/layout";
import { setupRefusal, setupWords } from "../guard";
import { fieldOfProblem, readWeek } from "../hours";
import { roomsOf } from "../providers";
import { changedOnly, saveWith, textOf, ticked, wholeNumber } from "../save";
import { type RoomState, roomFields, roomFormPage, roomsPage } from "./page";
import { roomWordsOf } from "./words";

/** The rooms pages, mounted by setup/routes.tsx. */
export const roomRoutes = new Hono<DeskEnv>();

const words = (c: DeskContext) => roomWordsOf(c.var.desk.locale);
const mayAdd = (c: DeskContext) => setupRefusal(c, "catalog:write", "POST /resources");
const mayChange = (c: DeskContext) => setupRefusal(c, "catalog:write", "PATCH /resources/:id", c.req.param("id"));

roomRoutes.get("/setup/rooms", async (c) => {
  const denied = await mayAdd(c);
  if (denied) return denied;
  const items = (await roomsOf(c)).map((r) => ({
    href: `/office/setup/rooms/${r.id}`,
    name: r.name,
    detail: words(c).units(r.quantity),
    active: r.active,
  }));
  return roomsPage(c, items, flashOf(c, words(c).saved));
});

roomRoutes.get("/setup/rooms/new", async (c) => {
  const denied = await mayAdd(c);
  return denied ?? roomFormPage(c, { quantity: "1", timezone: c.var.desk.timezone });
});

/** The form as a resource body (own hours or null), the problems found reading it, and the hours' slots. */
function readRoom(c: DeskContext, f: FormFields) {
  const problems: Record<string, string> = {};
  const quantity = wholeNumber(f, "quantity", problems, words(c).notANumber) ?? undefined;
  const week = readWeek(f, setupWords(c).person.badInterval);
  const own = ticked(f, "ownHours");
  if (own) Object.assign(problems, week.problems);
  const body = {
    name: textOf(f, "name"),
    quantity,
    timezone: textOf(f, "timezone"),
    weeklySchedule: own ? week.value : null,
  };
  const place = (found: Record<string, string>) => {
    const out: Record<string, string> = {};
    for (const [path, message] of Object.entries(found)) out[fieldOfProblem(path, week.slots) ?? path] ??= message;
    return out;
  };
  return { body, problems, place };
}

roomRoutes.post("/setup/rooms", async (c) => {
  const denied = await mayAdd(c);
  if (denied) return denied;
  const sent = await readForm(c);
  const read = readRoom(c, sent);
  const { businessId } = c.var.caller;
  const saved = await saveWith(
    c,
    CreateResourceSchema,
    read.body,
    (body) => addResource(c.env, c.var.db, businessId, body, actorOf(c.var.caller)),
    read.problems,
  );
  if (saved.ok) return c.redirect(`/office/setup/rooms/${saved.value.resource.id}?done=created`, 303);
  return roomFormPage(c, sent, undefined, { ...saved, problems: read.place(saved.problems) }, saved.status);
});

/** The room's edit page, after the role check for changing it. */
async function editPage(c: DeskContext, state: RoomState = {}, status: DeskStatus = 200) {
  const denied = await mayChange(c);
  if (denied) return denied;
  const room = toResource(await loadResource(c.var.db, c.var.caller.businessId, c.req.param("id") ?? ""));
  return roomFormPage(c, roomFields(room), room, state, status);
}

roomRoutes.get("/setup/rooms/:id", (c) => editPage(c, { flash: flashOf(c, words(c).saved) }));

/** Runs `PATCH /resources/{id}` with what changed of `next`: the room and the outcome (none when nothing changed). */
async function patch(c: DeskContext, next: Record<string, unknown>, problems: Record<string, string> = {}) {
  const id = c.req.param("id") ?? "";
  const { businessId } = c.var.caller;
  const row = await loadResource(c.var.db, businessId, id);
  const room = toResource(row);
  const changes = changedOnly(next, room);
  if (Object.keys(changes).length === 0 && Object.keys(problems).length === 0) return { room };
  const saved = await saveWith(
    c,
    UpdateResourceSchema,
    changes,
    (body) => editResource(c.env, c.var.db, businessId, id, body, [etagOf(row.version)], actorOf(c.var.caller)),
    problems,
  );
  return { room, saved };
}

roomRoutes.post("/setup/rooms/:id", async (c) => {
  const denied = await mayChange(c);
  if (denied) return denied;
  const id = c.req.param("id");
  const sent = await readForm(c);
  const read = readRoom(c, sent);
  const outcome = await patch(c, read.body, read.problems);
  if (!outcome.saved) return c.redirect(`/office/setup/rooms/${id}?done=unchanged`, 303);
  if (outcome.saved.ok) return c.redirect(`/office/setup/rooms/${id}?done=saved`, 303);
  const { refused, status } = outcome.saved;
  return roomFormPage(c, sent, outcome.room, { refused, problems: read.place(outcome.saved.problems) }, status);
});

roomRoutes.post("/setup/rooms/:id/active", async (c) => {
  const denied = await mayChange(c);
  if (denied) return denied;
  const id = c.req.param("id");
  const active = (await readForm(c)).active === "true";
  const outcome = await patch(c, { active });
  if (outcome.saved && !outcome.saved.ok) return editPage(c, { refused: outcome.saved.refused }, outcome.saved.status);
  return c.redirect(`/office/setup/rooms/${id}?done=${active ? "activated" : "deactivated"}`, 303);
});
