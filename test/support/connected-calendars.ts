/**
 * Connected calendars in tests (not a test file): the real CalDAV server the global setup started
 * (test/setup/caldav-server.ts), calendars made on it, events written into it and read back, and
 * connecting a calendar through the API as `npm run dev` allows (a loopback URL).
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import ICAL from "ical.js";
import { expect, inject, it } from "vitest";
import { app } from "../../src/app";
import { providerCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount, json, origin, problem } from "./api";
import { createProvider } from "./fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "./security";

/** The shared Xandikos's base URL; fails with the reason when the setup could not start one. */
export function caldavBase(): string {
  const { url, error } = inject("caldav");
  if (!url) throw new Error(error ?? "No CalDAV server.");
  return url;
}

/** A Xandikos of a test's own (to stop and start), through the setup's control server. */
export async function ownServer() {
  const { control, error } = inject("caldav");
  if (!control) throw new Error(error ?? "No CalDAV control server.");
  const started = (await (await fetch(`${control}/servers`, { method: "POST" })).json()) as { id: string; url: string };
  const act = async (action: "stop" | "start") => {
    const res = await fetch(`${control}/servers/${started.id}/${action}`, { method: "POST" });
    expect(res.status).toBe(200);
  };
  return { url: started.url, stop: () => act("stop"), start: () => act("start") };
}

const XML = { "Content-Type": "application/xml; charset=utf-8" };

/** Makes a new calendar collection on a CalDAV server (`base`, default the shared one); answers its URL. */
export async function newCollection(base = caldavBase()): Promise<string> {
  const url = `${base}/user/calendars/${crypto.randomUUID()}/`;
  // Extended MKCOL (RFC 5689): workerd's fetch has no MKCALENDAR method.
  const res = await fetch(url, {
    method: "MKCOL",
    headers: XML,
    body: '<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Staff</d:displayname></d:prop></d:set></d:mkcol>',
  });
  expect(res.status).toBe(201);
  return url;
}

/** `20261201T100000Z`. */
export const stamp = (iso: string) => `${iso.slice(0, 19).replace(/[-:]/g, "")}Z`;

/** A VCALENDAR around `body` (VEVENTs, VTIMEZONEs), CRLF-terminated. */
export const vcalendar = (...body: string[]) =>
  `${["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tests//EN", ...body, "END:VCALENDAR"].join("\r\n")}\r\n`;

/** One VEVENT from UTC instants, with extra property lines. */
export const vevent = (uid: string, start: string, end: string, ...extra: string[]) =>
  [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20260101T000000Z",
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    "SUMMARY:Dentist",
    ...extra,
    "END:VEVENT",
  ].join("\r\n");

/** PUTs iCalendar data as `{name}.ics` in a collection; answers the member's URL. */
export async function putEvent(collection: string, name: string, data: string): Promise<string> {
  const url = `${collection}${name}.ics`;
  const res = await fetch(url, {
    method: "PUT",
    headers: { "Content-Type": "text/calendar; charset=utf-8" },
    body: data,
  });
  await res.body?.cancel();
  expect([201, 204]).toContain(res.status);
  return url;
}

/** Deletes a member. */
export async function deleteEvent(url: string): Promise<void> {
  const res = await fetch(url, { method: "DELETE" });
  expect([200, 204]).toContain(res.status);
}

/** Every VEVENT in a collection as ical.js reads it: uid, summary, UTC start and end, and its member's name. */
export async function eventsIn(collection: string) {
  const res = await fetch(collection, {
    method: "REPORT",
    headers: { ...XML, Depth: "1" },
    body: '<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>',
  });
  expect(res.status).toBe(207);
  const text = await res.text();
  const members = [
    ...text.matchAll(
      /<(?:\w+:)?href>([^<]+)<\/(?:\w+:)?href>[\s\S]*?<(?:\w+:)?calendar-data[^>]*>([\s\S]*?)<\/(?:\w+:)?calendar-data>/g,
    ),
  ];
  return members
    .flatMap(([, href, data]) => {
      const decoded = (data as string)
        .replaceAll("&#13;", "\r")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
        .replaceAll("&amp;", "&");
      return new ICAL.Component(ICAL.parse(decoded)).getAllSubcomponents("vevent").map((component) => {
        const event = new ICAL.Event(component);
        return {
          name: (href as string).split("/").pop() as string,
          uid: event.uid,
          summary: event.summary,
          start: event.startDate.toJSDate().toISOString(),
          end: event.endDate.toJSDate().toISOString(),
        };
      });
    })
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/**
 * A request to the API as `npm run dev` serves it (WEBHOOKS_ALLOW_LOCAL=true, so a calendar on
 * this machine may be connected); `path` is relative to /api/v1.
 */
export async function localApi(method: string, path: string, key: string, body?: unknown): Promise<Response> {
  const request = new Request(`${origin}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const ctx = createExecutionContext();
  const response = await app.fetch(request, { ...env, WEBHOOKS_ALLOW_LOCAL: "true" }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** Connects a calendar that must be accepted (201); answers its JSON. */
export async function connect(key: string, providerId: string, body: Record<string, unknown>) {
  const res = await localApi("POST", `/providers/${providerId}/calendars`, key, body);
  if (res.status !== 201) throw new Error(`connect failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** Reads a connected calendar now (`POST …/sync`), expecting a 200; answers its JSON. */
export async function syncNow(key: string, providerId: string, calendarId: string) {
  const res = await localApi("POST", `/providers/${providerId}/calendars/${calendarId}/sync`, key);
  expect(res.status).toBe(200);
  return json(res);
}

/** The person's calendar object. */
export const providerStub = (businessId: string, providerId: string) => providerCalendarOf(env, businessId, providerId);

/**
 * The security block of the calendar operations: a live key is needed, and another business's
 * provider or calendar is the 404 of an unknown one, telling nothing of it (its URL included).
 */
export function calendarOperationSecurity(
  method: string,
  path: (providerId: string, calendarId: string) => string,
  body?: unknown,
) {
  it("needs a live key", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    const calendar = await connect(apiKey, provider.id, { url: await newCollection() });
    await expectUnauthorized(await api(method, path(provider.id, calendar.id), { body }), false);
    const revoked = await revokedKey(businessId);
    await expectUnauthorized(await api(method, path(provider.id, calendar.id), { key: revoked, body }), true);
  });

  it("another business's provider and calendar are 404s like unknown ones", async () => {
    const owner = await createAccount("Owner");
    const provider = await createProvider(owner.apiKey, { name: "Private Person" });
    const url = await newCollection();
    const calendar = await connect(owner.apiKey, provider.id, { url });
    const intruder = await createAccount("Intruder");
    const own = await createProvider(intruder.apiKey);
    const unknownProvider = unknownIdLike(provider.id);
    await expectNotFoundLikeUnknown(
      await localApi(method, path(provider.id, calendar.id), intruder.apiKey, body),
      provider.id,
      await localApi(method, path(unknownProvider, calendar.id), intruder.apiKey, body),
      unknownProvider,
      ["Private Person", url],
    );
    if (path("p", "CALENDAR").includes("CALENDAR")) {
      // Their calendar's id under one's own provider: no such calendar.
      const foreign = await localApi(method, path(own.id, calendar.id), intruder.apiKey, body);
      expect((await problem(foreign, 404, "not_found")).detail).not.toContain(url);
    }
    const still = await json(await localApi("GET", `/providers/${provider.id}/calendars/${calendar.id}`, owner.apiKey));
    expect(still.id).toBe(calendar.id);
  });
}
