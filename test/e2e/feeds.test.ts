/** Calendar feeds against the dev server: a person's subscription and one booking's file, read by ical.js. */
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import {
  anonymous,
  api,
  bookingBody,
  createBooking,
  createOpenService,
  expectProblem,
  type Schemas,
  unique,
  utcAt,
} from "./support";

const allDay = [{ start: "00:00", end: "24:00" }];

/** The VEVENTs of an iCalendar text: uid, summary and UTC start. */
function eventsIn(text: string) {
  return new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    return { uid: event.uid, summary: event.summary, start: event.startDate.toJSDate().toISOString() };
  });
}

async function providerWithBooking() {
  const person = await api.POST("/providers", {
    body: {
      name: unique("Feed person"),
      timezone: "UTC",
      weeklySchedule: { mon: allDay, tue: allDay, wed: allDay, thu: allDay, fri: allDay, sat: allDay, sun: allDay },
    },
  });
  const provider = person.data as Schemas["Provider"];
  const service = await createOpenService({ name: unique("Feed service"), providerIds: [provider.id] });
  const booking = await createBooking(bookingBody(service, utcAt(9, 10), { customerName: "Barbara Liskov" }));
  return { provider, service, booking };
}

/** The `{token}` of a feed URL. */
const tokenOf = (url: string) => /\/feeds\/(.+)\.ics$/.exec(url)?.[1] ?? "";

describe("calendar feeds", () => {
  it("a person's feed is issued, read without a key, rotated and ended", async () => {
    const { provider, service, booking } = await providerWithBooking();
    const issued = await api.POST("/providers/{id}/feed", { params: { path: { id: provider.id } } });
    expect(issued.response.status).toBe(201);
    const token = tokenOf(issued.data?.url ?? "");

    const read = await anonymous.GET("/feeds/{token}.ics", { params: { path: { token } }, parseAs: "text" });
    expect(read.response.status).toBe(200);
    expect(read.response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(eventsIn(read.data ?? "")).toEqual([
      { uid: booking.id, summary: `${service.name} — Barbara`, start: new Date(booking.startTime).toISOString() },
    ]);
    const etag = read.response.headers.get("etag") ?? "";
    const unchanged = await anonymous.GET("/feeds/{token}.ics", {
      params: { path: { token }, header: { "if-none-match": etag } },
      parseAs: "text",
    });
    expect(unchanged.response.status).toBe(304);

    const rotated = await api.POST("/providers/{id}/feed", { params: { path: { id: provider.id } } });
    const old = await anonymous.GET("/feeds/{token}.ics", { params: { path: { token } }, parseAs: "text" });
    expectProblem(old.response, old.error, 404, "not_found");

    const ended = await api.DELETE("/providers/{id}/feed", { params: { path: { id: provider.id } } });
    expect(ended.response.status).toBe(204);
    const gone = await anonymous.GET("/feeds/{token}.ics", {
      params: { path: { token: tokenOf(rotated.data?.url ?? "") } },
      parseAs: "text",
    });
    expect(gone.response.status).toBe(404);
  });

  it("one booking's file carries its VEVENT, with the key", async () => {
    const { booking, service } = await providerWithBooking();
    const { data, response } = await api.GET("/bookings/{id}.ics", {
      params: { path: { id: booking.id } },
      parseAs: "text",
    });
    expect(response.status).toBe(200);
    expect(eventsIn(data ?? "")).toEqual([
      { uid: booking.id, summary: `${service.name} — Barbara`, start: new Date(booking.startTime).toISOString() },
    ]);
    const json = await api.GET("/bookings/{id}", { params: { path: { id: booking.id } } });
    expect(json.data?.id).toBe(booking.id);
  });
});
