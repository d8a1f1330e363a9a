/**
 * The actions of the roles model (roles.test.ts), each as the API, the office and (where it has a
 * tool) the MCP server offer it to a signed-in member, with the record it acts on, how an owner's
 * key reads that record back, and what docs/members.md ("Roles") says the member's role may do.
 * Not a test file.
 */
import { expect } from "vitest";
import { scopes } from "../../src/types/scopes";
import { keyWith, memberOf } from "../support/access";
import { api, json, origin } from "../support/api";
import { appointmentStarted, at, book, bookingBody, dayOf, freshEmail, plus } from "../support/bookings";
import { readFeed } from "../support/feeds";
import { everyDay, salon } from "../support/fixtures";
import { PROTOCOL_VERSION, request } from "../support/mcp";
import { asMember, office, signIn } from "../support/members";

export type Role = "owner" | "frontdesk" | "staff";
/** What a path decided: done, refused for the role (403), not the member's to see (404), or anything else. */
export type Decision = "done" | "forbidden" | "not found" | `other ${number}`;
export type Path = "api" | "office" | "mcp";

/** A business of two people, with a signed-in member of each role (a staff member for each person). */
export async function rolesWorld() {
  const s = await salon(2);
  const cookie = async (role: Role, providerId?: string) => {
    const email = `${role}.${crypto.randomUUID().slice(0, 8)}@example.com`;
    await memberOf(s.apiKey, { role, email, ...(providerId ? { providerId } : {}) });
    return signIn(email);
  };
  const members = {
    owner: await cookie("owner"),
    frontdesk: await cookie("frontdesk"),
    staff: [await cookie("staff", s.providerIds[0]), await cookie("staff", s.providerIds[1])],
  };
  // The owner's reads and preparations take turns on keys of every scope: one key's budget (600
  // reads a minute) is less than a fast run of the model asks.
  const keys: string[] = [];
  for (let i = 0; i < OWNER_KEYS; i++) keys.push((await keyWith([...scopes], s.apiKey)).key);
  return { ...s, members, keys };
}

/** How many keys the owner's side of the model takes turns on. */
const OWNER_KEYS = 8;

/** The world of run `n`: the owner's side on its turn's key. */
export const onKeyOf = (w: World, n: number): World => ({ ...w, apiKey: w.keys[n % w.keys.length] as string });
export type World = Awaited<ReturnType<typeof rolesWorld>>;

/** One path's record: the person acted for, the run's day, and the booking, customer or slot made for this path. */
export type Target = { providerId: string; day: number; slot: number; id: string; email: string };

/** Where one path's records sit on the run's day: a booking, the time it moves to, a new booking's time. */
const booked = ["09:00", "09:30", "10:00"];
const moveTo = ["13:00", "13:30", "14:00"];
const created = ["15:00", "15:30", "16:00"];

/** Each path acts on a record of its own, made alike: a booking with the person, or its customer. */
async function bookingTarget(w: World, providerId: string, day: number, slot: number, started = false) {
  const start = at(day, booked[slot] as string);
  const booking = await book(w.apiKey, bookingBody(w.cut, start, { providerId }));
  if (started) await appointmentStarted(w.businessId, w.cut, booking.id);
  return { providerId, day, slot, id: booking.id as string, email: booking.customerEmail as string };
}
const customerTarget = async (w: World, providerId: string, day: number, slot: number) => {
  const t = await bookingTarget(w, providerId, day, slot);
  const booking = await json(await api("GET", `/bookings/${t.id}`, { key: w.apiKey }));
  return { ...t, id: booking.customerId as string };
};
const nothingMade = async (_w: World, providerId: string, day: number, slot: number) => ({
  providerId,
  day,
  slot,
  id: providerId,
  email: freshEmail(),
});

/** The person's feed, made by the owner's key for this path (replacing any before): its address's path is the id. */
const feedTarget = async (w: World, providerId: string, day: number, slot: number) => {
  const made = await json(await api("POST", `/providers/${providerId}/feed`, { key: w.apiKey }));
  return { providerId, day, slot, id: (made.url as string).slice(`${origin}/api/v1`.length), email: freshEmail() };
};
/** Whether the feed's address still answers (200) or was ended (404). */
const readFeedStatus = async (_w: World, t: Target) => (await readFeed(t.id)).status;

const ownerRead = async (w: World, path: string) => {
  const res = await api("GET", path, { key: w.apiKey });
  expect(res.status, path).toBe(200);
  return json(res);
};
const readBooking = (w: World, t: Target) => ownerRead(w, `/bookings/${t.id}`);
/** An erased customer disappears from reads (404): that is what the erasure changed. */
const readCustomer = async (w: World, t: Target) => {
  const res = await api("GET", `/customers/${t.id}`, { key: w.apiKey });
  expect([200, 404], `/customers/${t.id}`).toContain(res.status);
  return res.status === 404 ? "erased" : json(res);
};
const readPerson = async (w: World, t: Target) => {
  const { weeklySchedule, dateOverrides, version } = await ownerRead(w, `/providers/${t.providerId}`);
  return { weeklySchedule, dateOverrides, version };
};
const newTime = (t: Target, times: string[]) => {
  const startTime = at(t.day, times[t.slot] as string);
  return { startTime, endTime: plus(startTime, 30) };
};
const postedTime = (t: Target, times: string[]) => {
  const { startTime, endTime } = newTime(t, times);
  return `${startTime}/${endTime}`;
};
/** A new booking's slot: the bookings of the run's day that start there (none before a booking is made). */
const readSlot = async (w: World, t: Target) => {
  const { startTime, endTime } = newTime(t, created);
  const page = await ownerRead(w, `/bookings?serviceId=${w.cut}&from=${startTime}&to=${endTime}`);
  return page.data.map((b: { id: string }) => b.id);
};
const readInvitee = async (w: World, t: Target) =>
  (await ownerRead(w, "/members?limit=100")).data.filter((m: { email: string }) => m.email === t.email);

const wide = [{ start: "08:00", end: "18:00" }];
const wideWeek = Object.fromEntries(Object.keys(everyDay).map((day) => [day, wide]));
const restoreHours = async (w: World, t: Target) => {
  const body = { weeklySchedule: everyDay, dateOverrides: [] };
  expect((await api("PATCH", `/providers/${t.providerId}`, { key: w.apiKey, body })).status).toBe(200);
};

/** What the role table grants: everything (owner), a list of actions, or staff's own records only. */
type Grant = { frontdesk: boolean; staff: "own" | "no" };

export type Action = {
  name: string;
  grant: Grant;
  prepare: (w: World, providerId: string, day: number, slot: number) => Promise<Target>;
  api: (w: World, cookie: string, t: Target) => Promise<Response>;
  office: (w: World, cookie: string, t: Target) => Promise<Response>;
  /** The MCP tool and its arguments, for the actions the MCP server offers. */
  mcp?: (w: World, t: Target) => { tool: string; args: Record<string, unknown> };
  /** The record as the owner's key reads it: the same before and after a refusal, changed by what is done. */
  read: (w: World, t: Target) => Promise<unknown>;
  /** Puts shared state back after a path (a person's hours, a member invited), so the next path starts alike. */
  restore?: (w: World, t: Target) => Promise<void>;
};

const statusAction = (status: "NO_SHOW" | "COMPLETED"): Action => ({
  name: `status ${status}`,
  grant: { frontdesk: true, staff: "own" },
  prepare: (w, p, d, s) => bookingTarget(w, p, d, s, true),
  api: (_w, cookie, t) => asMember("PATCH", `/bookings/${t.id}`, cookie, { status }, sameSite),
  office: (_w, cookie, t) => office("POST", `/office/bookings/${t.id}/status`, { cookie, form: { status } }),
  read: readBooking,
});

const sameSite = { Origin: "http://api.test" };
const bookingGrant: Grant = { frontdesk: true, staff: "own" };

export const actions: Action[] = [
  {
    name: "cancel",
    grant: bookingGrant,
    prepare: bookingTarget,
    api: (_w, cookie, t) => asMember("POST", `/bookings/${t.id}/cancel`, cookie, { reason: "Ill" }, sameSite),
    office: (_w, cookie, t) => office("POST", `/office/bookings/${t.id}/cancel`, { cookie, form: { reason: "Ill" } }),
    mcp: (_w, t) => ({ tool: "cancel_booking", args: { bookingId: t.id, reason: "Ill" } }),
    read: readBooking,
  },
  statusAction("NO_SHOW"),
  statusAction("COMPLETED"),
  {
    name: "notes",
    grant: bookingGrant,
    prepare: bookingTarget,
    api: (_w, cookie, t) => asMember("PATCH", `/bookings/${t.id}`, cookie, { notes: "Allergic" }, sameSite),
    office: (_w, cookie, t) =>
      office("POST", `/office/bookings/${t.id}/notes`, { cookie, form: { notes: "Allergic" } }),
    read: readBooking,
  },
  {
    name: "move",
    grant: bookingGrant,
    prepare: bookingTarget,
    api: (_w, cookie, t) => asMember("POST", `/bookings/${t.id}/reschedule`, cookie, newTime(t, moveTo), sameSite),
    office: (_w, cookie, t) =>
      office("POST", `/office/bookings/${t.id}/move`, { cookie, form: { time: postedTime(t, moveTo) } }),
    mcp: (_w, t) => ({ tool: "reschedule_booking", args: { bookingId: t.id, ...newTime(t, moveTo) } }),
    read: readBooking,
  },
  {
    name: "book by phone",
    grant: { frontdesk: true, staff: "no" },
    prepare: nothingMade,
    api: (w, cookie, t) => asMember("POST", "/bookings", cookie, newBooking(w, t), sameSite),
    office: (w, cookie, t) => {
      const form = {
        service: w.cut,
        person: t.providerId,
        day: dayOf(t.day),
        time: postedTime(t, created),
        name: "Phone Caller",
        email: t.email,
        notes: "",
      };
      return office("POST", "/office/bookings/new", { cookie, form });
    },
    mcp: (w, t) => ({ tool: "book_appointment", args: newBooking(w, t) }),
    read: readSlot,
  },
  {
    name: "edit customer",
    grant: { frontdesk: true, staff: "no" },
    prepare: customerTarget,
    api: (_w, cookie, t) => asMember("PATCH", `/customers/${t.id}`, cookie, edited(t), sameSite),
    office: (_w, cookie, t) => office("POST", `/office/customers/${t.id}`, { cookie, form: edited(t) }),
    read: readCustomer,
  },
  {
    name: "erase customer",
    grant: { frontdesk: false, staff: "no" },
    prepare: customerTarget,
    api: (_w, cookie, t) => asMember("DELETE", `/customers/${t.id}`, cookie, undefined, sameSite),
    office: (_w, cookie, t) =>
      office("POST", `/office/customers/${t.id}/erase`, { cookie, form: { confirm: t.email } }),
    read: readCustomer,
  },
  {
    name: "set hours",
    grant: { frontdesk: false, staff: "own" },
    prepare: nothingMade,
    api: (_w, cookie, t) =>
      asMember("PATCH", `/providers/${t.providerId}`, cookie, { weeklySchedule: wideWeek }, sameSite),
    office: (_w, cookie, t) => {
      const form = Object.fromEntries(Object.keys(everyDay).map((day) => [`${day}.0`, "08:00–18:00"]));
      return office("POST", `/office/setup/people/${t.providerId}/hours`, { cookie, form });
    },
    read: readPerson,
    restore: restoreHours,
  },
  {
    name: "day off",
    grant: { frontdesk: false, staff: "own" },
    prepare: nothingMade,
    api: (_w, cookie, t) =>
      asMember("PATCH", `/providers/${t.providerId}`, cookie, { dateOverrides: [dayOff(t)] }, sameSite),
    office: (_w, cookie, t) =>
      office("POST", `/office/setup/people/${t.providerId}/days-off`, {
        cookie,
        form: { date: dayOf(t.day), hours: "" },
      }),
    read: readPerson,
    restore: restoreHours,
  },
  {
    name: "end feed",
    grant: { frontdesk: false, staff: "own" },
    prepare: feedTarget,
    api: (_w, cookie, t) => asMember("DELETE", `/providers/${t.providerId}/feed`, cookie, undefined, sameSite),
    office: (_w, cookie, t) => office("POST", `/office/setup/people/${t.providerId}/feed/end`, { cookie }),
    read: readFeedStatus,
  },
  {
    name: "invite member",
    grant: { frontdesk: false, staff: "no" },
    prepare: nothingMade,
    api: (_w, cookie, t) => asMember("POST", "/members", cookie, invitation(t), sameSite),
    office: (_w, cookie, t) => office("POST", "/office/setup/members", { cookie, form: invitation(t) }),
    read: readInvitee,
    restore: async (w, t) => {
      for (const m of await readInvitee(w, t)) await api("DELETE", `/members/${m.id}`, { key: w.apiKey });
    },
  },
];

const newBooking = (w: World, t: Target) => ({
  serviceId: w.cut,
  providerId: t.providerId,
  ...newTime(t, created),
  customerName: "Phone Caller",
  customerEmail: t.email,
});
const edited = (t: Target) => ({ name: "Edited Name", email: `edited.${t.email}`, phone: "+49 30 5555" });
const dayOff = (t: Target) => ({ date: dayOf(t.day), intervals: [] });
/** The invitation of a staff member who is the run's person (the target: one person or the other). */
const invitation = (t: Target) => ({ name: "New Member", email: t.email, role: "staff", providerId: t.providerId });

/** What docs/members.md's table says the member may do to the record of `own` (their person's) or another's. */
export function expected(action: Action, role: Role, own: boolean): Decision {
  if (role === "owner") return "done";
  if (role === "frontdesk") return action.grant.frontdesk ? "done" : "forbidden";
  if (action.grant.staff === "no") return "forbidden";
  return own ? "done" : "not found";
}

/** The API's decision: done (2xx), refused for the role (403 naming a scope or forbidden), not found (404). */
export async function apiDecision(res: Response): Promise<Decision> {
  if (res.status >= 200 && res.status < 300) return "done";
  const body = await json(res);
  if (res.status === 403 && ["insufficient_scope", "forbidden"].includes(body.code)) return "forbidden";
  if (res.status === 404 && body.code === "not_found") return "not found";
  return `other ${res.status}`;
}

/** The office's decision: done (303 back to a page), its 403 page, its 404 page (HTML, never a problem). */
export async function officeDecision(res: Response): Promise<Decision> {
  await res.text();
  if (res.status === 303) return "done";
  expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
  if (res.status === 403) return "forbidden";
  if (res.status === 404) return "not found";
  return `other ${res.status}`;
}

/** A tool call over MCP with the member's session cookie (from this site, as a change must be), and its decision. */
export async function mcpDecision(cookie: string, tool: string, args: Record<string, unknown>): Promise<Decision> {
  const headers = {
    ...sameSite,
    Accept: "application/json, text/event-stream",
    "MCP-Protocol-Version": PROTOCOL_VERSION,
  };
  const res = await asMember("POST", "/mcp", cookie, request("tools/call", { name: tool, arguments: args }), headers);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.error, JSON.stringify(body.error)).toBeUndefined();
  if (!body.result.isError) return "done";
  const { problem } = JSON.parse(body.result.content[1]?.text ?? "{}");
  if (problem?.status === 403 && ["insufficient_scope", "forbidden"].includes(problem.code)) return "forbidden";
  if (problem?.status === 404 && problem.code === "not_found") return "not found";
  return `other ${problem?.status}`;
}
