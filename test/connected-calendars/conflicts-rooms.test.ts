/**
 * Conflicts from a change of a room's hours: the change goes through, and each booking still to
 * come that the room's new hours or date overrides leave outside is marked `resource_closed` once,
 * with one `booking.conflict` naming the room; hours restored clear it with one
 * `booking.conflict_resolved`; a booking moved into the open hours clears too.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../src/db/schema";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, book, bookingBody, dayOf, plus } from "../support/bookings";
import { eventually } from "../support/eventually";
import { createResource, createWebhook, everyDay } from "../support/fixtures";

const MORNINGS = Object.fromEntries(Object.keys(everyDay).map((d) => [d, [{ start: "09:00", end: "12:00" }]]));

async function roomWithBookings() {
  const { apiKey, businessId } = await createAccount("Clinic");
  const room = await createResource(apiKey, { weeklySchedule: everyDay });
  const service = await createService(apiKey, { name: "Scan", resourceIds: [room.id] });
  await createWebhook(apiKey, { events: ["booking.conflict", "booking.conflict_resolved"] });
  const afternoon = await book(apiKey, bookingBody(service.id, at(3, "15:00")));
  const morning = await book(apiKey, bookingBody(service.id, at(3, "10:00")));
  const nextDay = await book(apiKey, bookingBody(service.id, at(4, "10:00")));
  const patch = async (body: object) =>
    expect((await api("PATCH", `/resources/${room.id}`, { key: apiKey, body })).status).toBe(200);
  const kinds = async (id: string) =>
    ((await json(await api("GET", `/bookings/${id}`, { key: apiKey }))).conflicts as { kind: string }[]).map(
      (c) => c.kind,
    );
  const events = async () =>
    (await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, businessId)))
      .filter((e) => e.type.startsWith("booking.conflict"))
      .map((e) => ({ type: e.type, data: JSON.parse(e.payload).data }));
  return { apiKey, room, afternoon, morning, nextDay, patch, kinds, events };
}

describe("conflicts from a change of a room's hours", () => {
  it("hours narrowed and a day closed: resource_closed once each, naming the room; restored: cleared", async () => {
    const r = await roomWithBookings();
    await r.patch({ weeklySchedule: MORNINGS });
    await eventually(async () => ((await r.kinds(r.afternoon.id)).length ? true : undefined), "the afternoon marked");
    expect(await r.kinds(r.afternoon.id)).toEqual(["resource_closed"]);
    expect(await r.kinds(r.morning.id)).toEqual([]);
    await r.patch({ dateOverrides: [{ date: dayOf(4), intervals: [] }] });
    await eventually(async () => ((await r.kinds(r.nextDay.id)).length ? true : undefined), "the closed day marked");
    // Seen again (a change of name): nothing new.
    await r.patch({ name: "Scan room" });
    const found = await eventually(async () => {
      const list = await r.events();
      return list.length === 2 ? list : undefined;
    }, "two booking.conflict events");
    expect(found.map((e) => [e.type, e.data.bookingId, e.data.resourceId]).sort()).toEqual(
      [
        ["booking.conflict", r.afternoon.id, r.room.id],
        ["booking.conflict", r.nextDay.id, r.room.id],
      ].sort(),
    );
    expect(found[0]?.data.conflict.detail).toMatch(/^The room's hours no longer cover /);

    await r.patch({ weeklySchedule: everyDay, dateOverrides: [] });
    await eventually(async () => ((await r.kinds(r.afternoon.id)).length ? undefined : true), "the afternoon cleared");
    expect(await r.kinds(r.nextDay.id)).toEqual([]);
    const all = await eventually(async () => {
      const list = await r.events();
      return list.length === 4 ? list : undefined;
    }, "two resolutions");
    expect(all.filter((e) => e.type === "booking.conflict_resolved").map((e) => e.data.reason)).toEqual([
      "cause_gone",
      "cause_gone",
    ]);
  });

  it("a booking moved into the room's open hours clears its conflict (booking_changed)", async () => {
    const r = await roomWithBookings();
    await r.patch({ weeklySchedule: MORNINGS });
    await eventually(async () => ((await r.kinds(r.afternoon.id)).length ? true : undefined), "the afternoon marked");
    const to = at(3, "11:00");
    const moved = await api("POST", `/bookings/${r.afternoon.id}/reschedule`, {
      key: r.apiKey,
      body: { startTime: to, endTime: plus(to, 30) },
    });
    expect(moved.status).toBe(200);
    await eventually(async () => ((await r.kinds(r.afternoon.id)).length ? undefined : true), "cleared by the move");
    const resolved = await eventually(
      async () => (await r.events()).find((e) => e.type === "booking.conflict_resolved"),
      "its resolution",
    );
    expect(resolved.data).toMatchObject({
      bookingId: r.afternoon.id,
      resourceId: r.room.id,
      reason: "booking_changed",
    });
  });
});
