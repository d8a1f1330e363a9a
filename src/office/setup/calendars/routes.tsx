/**
 * A person's connected calendars and feed from their setup page, under `/office/setup/people/{id}`:
 * connect, sync now, disconnect (after a page that asks), make a feed address (shown once) and end
 * the feed (after a page that asks). Each runs the API's own function for its operation
 * (src/providers/connected-calendars.ts, src/feeds/records.ts) after the same scope and role check
 * as that operation (an owner: anyone's; a staff member: their own person only, another's a 404
 * page; the front desk: the 403 page), the body checked by the API's schema, the member the
 * audit's actor. Done: 303 back with a flash, so a reload sends nothing again; the feed's address
 * is the exception (it is shown on the answer, never cached), guarded by what the form saw instead.
 */
import { Hono } from "hono";
import { actorOf } from "../../../access/actor";
import { feedAddress, issueFeed, revokeFeed } from "../../../feeds/records";
import { ApiError } from "../../../lib/api-error";
import { readForm } from "../../../pages/form";
import { connectCalendar, disconnectCalendar, getCalendar, syncCalendar } from "../../../providers/connected-calendars";
import { loadProvider } from "../../../providers/records";
import { ConnectCalendarSchema } from "../../../schemas/connected-calendars";
import type { DeskContext, DeskEnv } from "../../frame/desk";
import { confirmPage } from "../frame";
import { setupRefusal } from "../guard";
import { providerSetupPage } from "../provider-page";
import { loadProviderSetup } from "../provider-routes";
import { saveWith, textOf, ticked } from "../save";
import { calendarWords } from "./page";

/** The calendar and feed actions, mounted by setup/routes.tsx. */
export const calendarRoutes = new Hono<DeskEnv>();

const PERSON = "/setup/people/:id";
const personPage = (id: string) => `/office/setup/people/${id}`;
const done = (c: DeskContext, id: string, what: string) => c.redirect(`${personPage(id)}?done=${what}`, 303);

/** The role check of the API operation `operation` on the person `id`: the 403 page, a thrown 404, or undefined. */
const refusal = (c: DeskContext, operation: string, id: string) => setupRefusal(c, "catalog:write", operation, id);

calendarRoutes.post(`${PERSON}/calendars`, async (c) => {
  const id = c.req.param("id");
  const denied = await refusal(c, "POST /providers/:id/calendars", id);
  if (denied) return denied;
  const sent = await readForm(c);
  // The password as typed (a space may be part of it); empty fields are not sent, as the API's optional ones.
  const body = {
    url: textOf(sent, "url"),
    username: textOf(sent, "username") || undefined,
    password: sent.password || undefined,
    writeBookings: ticked(sent, "writeBookings"),
  };
  const { businessId } = c.var.caller;
  const saved = await saveWith(c, ConnectCalendarSchema, body, (input) =>
    connectCalendar(c.env, c.var.db, businessId, id, input, actorOf(c.var.caller)),
  );
  if (saved.ok) {
    const status = saved.value.syncStatus;
    return done(c, id, status === "ok" ? "connected" : status === "failing" ? "connectedFailing" : "connectedPending");
  }
  const { password: _never, ...connect } = sent;
  // The one 409 is the bound of 5 calendars: said in the member's words.
  const refused = saved.status === 409 ? calendarWords(c).limit : saved.refused;
  const state = { connect, problems: saved.problems, refused };
  return providerSetupPage(c, await loadProviderSetup(c, id), state, saved.status);
});

calendarRoutes.post(`${PERSON}/calendars/:calendarId/sync`, async (c) => {
  const { id, calendarId } = c.req.param();
  const denied = await refusal(c, "POST /providers/:id/calendars/:calendarId/sync", id);
  if (denied) return denied;
  const read = await syncCalendar(c.env, c.var.db, c.var.caller.businessId, id, calendarId);
  return done(c, id, read.syncStatus === "failing" ? "syncFailed" : "synced");
});

calendarRoutes.get(`${PERSON}/calendars/:calendarId/disconnect`, async (c) => {
  const { id, calendarId } = c.req.param();
  const denied = await refusal(c, "DELETE /providers/:id/calendars/:calendarId", id);
  if (denied) return denied;
  const calendar = await getCalendar(c.env, c.var.db, c.var.caller.businessId, id, calendarId);
  const w = calendarWords(c);
  return confirmPage(c, {
    title: w.disconnectTitle(calendar.url),
    text: w.disconnectText,
    action: `${personPage(id)}/calendars/${calendarId}/disconnect`,
    confirm: w.disconnect,
    back: { href: personPage(id), label: w.keep },
  });
});

calendarRoutes.post(`${PERSON}/calendars/:calendarId/disconnect`, async (c) => {
  const { id, calendarId } = c.req.param();
  const denied = await refusal(c, "DELETE /providers/:id/calendars/:calendarId", id);
  if (denied) return denied;
  const { businessId } = c.var.caller;
  // Another business's person, or none, is the 404 page; a calendar gone already (the form sent twice) is not.
  await loadProvider(c.var.db, businessId, id);
  try {
    await disconnectCalendar(c.env, c.var.db, businessId, id, calendarId, actorOf(c.var.caller));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return c.redirect(personPage(id), 303);
    throw error;
  }
  return done(c, id, "disconnected");
});

calendarRoutes.post(`${PERSON}/feed`, async (c) => {
  const id = c.req.param("id");
  const denied = await refusal(c, "POST /providers/:id/feed", id);
  if (denied) return denied;
  const sent = await readForm(c);
  // What the page saw: the feed it would replace ("" for none). Sent again (a reload), it no longer matches.
  const replacing = sent.replacing === undefined ? undefined : sent.replacing || null;
  const { businessId } = c.var.caller;
  const token = await issueFeed(c.var.db, businessId, id, actorOf(c.var.caller), { replacing });
  const view = await loadProviderSetup(c, id);
  if (!token) return providerSetupPage(c, view, { refused: calendarWords(c).feedTwice }, 409);
  // Shown on this answer only: never kept by a cache, never put in an address.
  c.header("Cache-Control", "no-store");
  return providerSetupPage(c, view, { feedUrl: feedAddress(token, c.req.url) });
});

calendarRoutes.get(`${PERSON}/feed/end`, async (c) => {
  const id = c.req.param("id");
  const denied = await refusal(c, "DELETE /providers/:id/feed", id);
  if (denied) return denied;
  await loadProvider(c.var.db, c.var.caller.businessId, id);
  const w = calendarWords(c);
  return confirmPage(c, {
    title: w.endTitle,
    text: w.endText,
    action: `${personPage(id)}/feed/end`,
    confirm: w.endFeed,
    back: { href: personPage(id), label: w.keep },
  });
});

calendarRoutes.post(`${PERSON}/feed/end`, async (c) => {
  const id = c.req.param("id");
  const denied = await refusal(c, "DELETE /providers/:id/feed", id);
  if (denied) return denied;
  await revokeFeed(c.var.db, c.var.caller.businessId, id, actorOf(c.var.caller));
  return done(c, id, "feedEnded");
});
