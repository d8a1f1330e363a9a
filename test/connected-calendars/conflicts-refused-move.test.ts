/**
 * A move that another calendar refuses leaves the booking where it was, and so its conflicts: the
 * calendar that took the new time first releases it, and the booking's conflicts there are still
 * those of the old time (before, the release cleared them, as if the booking had moved). Both
 * directions, so the test holds whichever calendar is asked first.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { providerCalendarOf, resourceCalendarOf } from "../../src/calendar/stubs";
import { webhookEvents } from "../../src/db/schema";
import { api, createAccount, createService, db, json } from "../support/api";
import { at, book, bookingBody, plus } from "../support/bookings";
import { eventually } from "../support/eventually";
import { createResource, createWebhook, everyDay, newProvider } from "../support/fixtures";

const hours = (start: string, end: string) =>
  Object.fromEntries(Object.keys(everyDay).map((d) => [d, [{ start, end }]]));
const MORNINGS = hours("09:00", "12:00");
const AFTERNOONS = hours("12:00", "18:00");

/** A provider and a room with the hours given, one service needing both, one booking on day 3 at 15:00. */
async function setUp(providerHours: object, roomHours: object) {
  const { apiKey, businessId } = await createAccount("Clinic");
  const provider = await newProvider(apiKey, "Dana", { weeklySchedule: providerHours });
  const room = await createResource(apiKey, { weeklySchedule: roomHours });
  const service = await createService(apiKey, { name: "Scan", providerIds: [provider], resourceIds: [room.id] });
  await createWebhook(apiKey, { events: ["booking.conflict", "booking.conflict_resolved"] });
  const booking = await book(apiKey, bookingBody(service.id, at(3, "15:00"), { providerId: provider }));
  const patch = async (path: string, body: object) =>
    expect((await api("PATCH", path, { key: apiKey, body })).status).toBe(200);
  const kinds = async () =>
    ((await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }))).conflicts as { kind: string }[]).map(
      (c) => c.kind,
    );
  const told = async () =>
    (await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, businessId)))
      .map((e) => e.type)
      .filter((type) => type.startsWith("booking.conflict"));
  const moveTo = async (time: string) => {
    const to = at(3, time);
    const res = await api("POST", `/bookings/${booking.id}/reschedule`, {
      key: apiKey,
      body: { startTime: to, endTime: plus(to, 30) },
    });
    return res.status;
  };
  // The person's and the room's alarms carry their conflict rows and events to D1.
  const settle = async () => {
    await runDurableObjectAlarm(providerCalendarOf(env, businessId, provider));
    await runDurableObjectAlarm(resourceCalendarOf(env, businessId, room.id));
  };
  return { provider, room, booking, patch, kinds, told, moveTo, settle, apiKey };
}

describe("a move refused by another calendar keeps the booking's conflicts", () => {
  it("the provider's hours narrowed (outside_hours), the room closed at the new time: still outside_hours, told once", async () => {
    const s = await setUp(everyDay, AFTERNOONS);
    await s.patch(`/providers/${s.provider}`, { weeklySchedule: MORNINGS });
    await eventually(async () => ((await s.kinds()).length ? true : undefined), "the booking marked");
    expect(await s.moveTo("10:00")).toBe(409);
    await s.settle();
    expect(await s.kinds()).toEqual(["outside_hours"]);
    expect(await s.told()).toEqual(["booking.conflict"]);
    const booking = await json(await api("GET", `/bookings/${s.booking.id}`, { key: s.apiKey }));
    expect(Date.parse(booking.startTime)).toBe(Date.parse(at(3, "15:00")));
  });

  it("the room's hours narrowed (resource_closed), the provider off at the new time: still resource_closed, told once", async () => {
    const s = await setUp(AFTERNOONS, everyDay);
    await s.patch(`/resources/${s.room.id}`, { weeklySchedule: MORNINGS });
    await eventually(async () => ((await s.kinds()).length ? true : undefined), "the booking marked");
    expect(await s.moveTo("10:00")).toBe(409);
    await s.settle();
    expect(await s.kinds()).toEqual(["resource_closed"]);
    expect(await s.told()).toEqual(["booking.conflict"]);
  });
});
