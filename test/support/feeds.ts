/** Calendar feeds in tests: issuing one, reading it, and its events as ical.js parses them. */
import ICAL from "ical.js";
import { expect, it } from "vitest";
import { type IcalEvent, writeIcal } from "../../src/lib/ical";
import { api, createAccount, json, origin } from "./api";
import { createProvider } from "./fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "./security";

/** Issues (or rotates) the provider's feed; answers its URL's path under /api/v1 and the URL. */
export async function issueFeed(key: string, providerId: string) {
  const res = await api("POST", `/providers/${providerId}/feed`, { key });
  expect(res.status).toBe(201);
  const body = await json(res);
  expect(body.providerId).toBe(providerId);
  expect(body.url).toMatch(new RegExp(`^${origin}/api/v1/feeds/cal_[A-Za-z0-9_-]{43}\\.ics$`));
  return { url: body.url as string, path: (body.url as string).slice(`${origin}/api/v1`.length) };
}

/** A GET of a public feed path, without a key, from `address`. */
export const readFeed = (path: string, address = "198.51.100.7", headers: Record<string, string> = {}) =>
  api("GET", path, { key: null, headers: { "CF-Connecting-IP": address, ...headers } });

/** An event for the iCalendar writer: a booking's, as a feed shows it, with `overrides`. */
export const icalEvent = (overrides: Partial<IcalEvent> = {}): IcalEvent => ({
  uid: "bkg_01jd3k5v7q8r9s0t1u2v3w4x5y",
  summary: "Haircut — Ada",
  start: "2026-12-01T10:00:00.000Z",
  end: "2026-12-01T10:30:00.000Z",
  stamp: "2026-11-24T09:00:00.000Z",
  modified: "2026-11-24T09:00:00.000Z",
  status: "CONFIRMED",
  ...overrides,
});

/** A feed of `events` named `name`, as the feeds write it. */
export const feedOf = (events: IcalEvent[], name = "Stylist 0") =>
  writeIcal({ product: "calendar feed", method: "PUBLISH", name, events });

/** An iCalendar text as ical.js reads it: the calendar, its name, and each VEVENT's uid, summary, UTC start and end, status. */
export function parseCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      status: component.getFirstPropertyValue("status") as string,
    };
  });
  return { calendar, events, name: calendar.getFirstPropertyValue("x-wr-calname") };
}

/** The VEVENTs of an iCalendar answer (asserting a 200 of that media type), with its text. */
export async function eventsOf(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
  const text = await res.text();
  const { events, name } = parseCalendar(text);
  return { text, events, name };
}

/**
 * The security block of `POST` and `DELETE /providers/{id}/feed`: a live key is needed, and
 * another business's provider is the 404 of an unknown id while its feed keeps working.
 */
export function feedOperationSecurity(method: "POST" | "DELETE") {
  it("needs a live key", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    await expectUnauthorized(await api(method, `/providers/${provider.id}/feed`), false);
    const revoked = await revokedKey(businessId);
    await expectUnauthorized(await api(method, `/providers/${provider.id}/feed`, { key: revoked }), true);
  });

  it("another business's provider is a 404 like an unknown one, and its feed keeps working", async () => {
    const owner = await createAccount("Owner");
    const provider = await createProvider(owner.apiKey, { name: "Private Person" });
    const feed = await issueFeed(owner.apiKey, provider.id);
    const intruder = await createAccount("Intruder");
    const unknownId = unknownIdLike(provider.id);
    await expectNotFoundLikeUnknown(
      await api(method, `/providers/${provider.id}/feed`, { key: intruder.apiKey }),
      provider.id,
      await api(method, `/providers/${unknownId}/feed`, { key: intruder.apiKey }),
      unknownId,
      ["Private Person"],
    );
    expect((await readFeed(feed.path)).status).toBe(200);
  });
}
