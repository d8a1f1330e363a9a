/**
 * `/office/setup/people/{id}` and its form posts. Every change is the API's own provider update
 * (src/providers/edit.ts, as `PATCH /providers/{id}` runs it) after the same scope and role check
 * with the body it would send — a staff member may send only their own `weeklySchedule` and
 * `dateOverrides` — checked by the same schema, with the member as the actor the audit records.
 * Done: 303 back with a flash. Refused: the page again (422) with the problem next to its field.
 */
import { Hono } from "hono";
import { actorOf } from "../../access/actor";
import { feedIssuedAt } from "../../feeds/records";
import { ApiError } from "../../lib/api-error";
import { etagOf } from "../../lib/etag";
import { type FormFields, readForm } from "../../pages/form";
import { listCalendars } from "../../providers/connected-calendars";
import { editProvider } from "../../providers/edit";
import { loadProvider, toProvider } from "../../providers/records";
import type { DateOverride, WeeklySchedule } from "../../types/schedule";
import type { DeskContext, DeskEnv } from "../frame/desk";
import { flashOf } from "../frame/flash";
import { problemsIn, sentenceIn } from "../frame/problems";
import { calendarWords } from "./calendars/page";
import { setupRefusal, setupWords } from "./guard";
import { fieldOfProblem, readDayHours, readWeek } from "./hours";
import { type ProviderSetupState, type ProviderSetupView, providerSetupPage } from "./provider-page";
import { HoursChange } from "./schemas";

/** The person pages, mounted by routes.tsx. */
export const providerSetupRoutes = new Hono<DeskEnv>();

/** The person, their calendars (asked as `GET /providers/{id}/calendars` is) and their feed's age. */
export async function loadProviderSetup(c: DeskContext, id: string): Promise<ProviderSetupView> {
  const { businessId } = c.var.caller;
  const provider = toProvider(await loadProvider(c.var.db, businessId, id));
  const denied = await setupRefusal(c, "catalog:read", "GET /providers/:id/calendars", id);
  const [calendars, feedSince] = await Promise.all([
    denied ? [] : listCalendars(c.env, c.var.db, businessId, id),
    feedIssuedAt(c.var.db, businessId, id),
  ]);
  return { provider, calendars, feedSince: feedSince ?? null };
}

providerSetupRoutes.get("/setup/people/:id", async (c) => {
  const id = c.req.param("id");
  const denied = await setupRefusal(c, "catalog:write", "PATCH /providers/:id", id);
  if (denied) return denied;
  const flash = flashOf(c, { ...calendarWords(c).saved, ...setupWords(c).person.saved });
  return providerSetupPage(c, await loadProviderSetup(c, id), { flash });
});

type Change = { weeklySchedule?: WeeklySchedule; dateOverrides?: DateOverride[] };

/** The page again, nothing changed: the form as sent and the problems at their fields. */
async function again(c: DeskContext, id: string, state: ProviderSetupState) {
  return providerSetupPage(c, await loadProviderSetup(c, id), { refused: setupWords(c).fixBelow, ...state }, 422);
}

/**
 * Runs the change as `PATCH /providers/{id}` with `body` would: the role check (with the body), the
 * API's schema, then its update, under `ifMatch` when the body was made from what was read. Answers
 * the API's problems by field (`where` places them in the form), or undefined when saved.
 */
async function patch(
  c: DeskContext,
  id: string,
  body: Change,
  where: (path: string) => string | undefined,
  ifMatch?: string[],
): Promise<Record<string, string> | Response | undefined> {
  const denied = await setupRefusal(c, "catalog:write", "PATCH /providers/:id", id, async () => body);
  if (denied) return denied;
  const parsed = HoursChange.safeParse(body);
  const problems: Record<string, string> = {};
  const place = (errors: { path: string; message: string }[]) => {
    for (const e of errors) problems[where(e.path) ?? "form"] ??= e.message;
  };
  if (!parsed.success) {
    place(problemsIn(c.var.desk.locale, parsed.error));
    return problems;
  }
  try {
    const { businessId } = c.var.caller;
    await editProvider(c.env, c.var.db, businessId, id, parsed.data, ifMatch, actorOf(c.var.caller));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status >= 500) throw error;
    const sentences = error.errors ?? [{ path: "form", message: error.message }];
    place(sentences.map((e) => ({ path: e.path, message: sentenceIn(c.var.desk.locale, e.message) })));
    return problems;
  }
  return undefined;
}

/** The outcome of `patch` as the answer: the 403 page, the page again with the problems, or 303 with a flash. */
async function answer(
  c: DeskContext,
  id: string,
  outcome: Awaited<ReturnType<typeof patch>>,
  state: ProviderSetupState,
  done: string,
) {
  if (outcome instanceof Response) return outcome;
  if (outcome === undefined) return c.redirect(`/office/setup/people/${id}?done=${done}`, 303);
  const { form, ...problems } = outcome;
  return again(c, id, { ...state, problems, ...(form ? { refused: form } : {}) });
}

providerSetupRoutes.post("/setup/people/:id/hours", async (c) => {
  const id = c.req.param("id");
  const week = await readForm(c);
  const read = readWeek(week, setupWords(c).person.badInterval);
  const body: Change = { weeklySchedule: read.value ?? {} };
  if (!read.value) {
    // Nothing goes to the API, but the member must be one who may send it (else 403 or 404 first).
    const denied = await setupRefusal(c, "catalog:write", "PATCH /providers/:id", id, async () => body);
    return denied ?? again(c, id, { week, problems: read.problems });
  }
  const outcome = await patch(c, id, body, (path) => fieldOfProblem(path, read.slots));
  return answer(c, id, outcome, { week }, "hours");
});

/** The person's date overrides as stored, with the version read, for a change of the list. */
async function storedOverrides(c: DeskContext, id: string) {
  const denied = await setupRefusal(c, "catalog:write", "PATCH /providers/:id", id, async () => ({
    dateOverrides: [],
  }));
  if (denied) return { denied };
  const row = await loadProvider(c.var.db, c.var.caller.businessId, id);
  return { overrides: row.dateOverrides, ifMatch: [etagOf(row.version)] };
}

providerSetupRoutes.post("/setup/people/:id/days-off", async (c) => {
  const id = c.req.param("id");
  const add: FormFields = await readForm(c);
  const stored = await storedOverrides(c, id);
  if (stored.denied) return stored.denied;
  const date = (add.date ?? "").trim();
  const hours = readDayHours(add.hours ?? "", setupWords(c).person.badInterval);
  if (!hours.value) return again(c, id, { add, problems: hours.problems });
  // A date listed already gets the new hours: one entry a date, as the API requires.
  const list = [...stored.overrides.filter((o) => o.date !== date), { date, intervals: hours.value }];
  const where = (path: string) => fieldOfProblem(path, {}, list.length - 1);
  const outcome = await patch(c, id, { dateOverrides: list }, where, stored.ifMatch);
  return answer(c, id, outcome, { add }, "added");
});

providerSetupRoutes.post("/setup/people/:id/days-off/remove", async (c) => {
  const id = c.req.param("id");
  const date = (await readForm(c)).date ?? "";
  const stored = await storedOverrides(c, id);
  if (stored.denied) return stored.denied;
  const list = stored.overrides.filter((o) => o.date !== date);
  // Not listed (removed already, say from another tab): nothing to write, nothing to record.
  if (list.length === stored.overrides.length) return c.redirect(`/office/setup/people/${id}`, 303);
  const outcome = await patch(c, id, { dateOverrides: list }, () => undefined, stored.ifMatch);
  return answer(c, id, outcome, {}, "removed");
});
