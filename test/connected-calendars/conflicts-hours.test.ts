/**
 * Conflicts from a change of a person's hours: the change goes through (200, never a 409 for the
 * bookings in the way), and each booking still to come that the new hours leave outside is marked
 * — `outside_hours` for weekly hours narrowed, `time_off` for a day closed by a date override —
 * once, with one `booking.conflict`; restoring the hours clears them with one
 * `booking.conflict_resolved` each.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../src/db/schema";
import { api, db, json } from "../support/api";
import { at, book, bookingBody, dayOf } from "../support/bookings";
import { providerStub } from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { createWebhook, everyDay, salon } from "../support/fixtures";

const MORNINGS = Object.fromEntries(Object.keys(everyDay).map((d) => [d, [{ start: "09:00", end: "12:00" }]]));

describe("conflicts from a change of the person's hours", () => {
  it("hours narrowed and a day closed under existing bookings: outside_hours and time_off, once; restored: cleared", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    await createWebhook(s.apiKey, { events: ["booking.conflict", "booking.conflict_resolved"] });
    const booking = (day: number, time: string) =>
      book(s.apiKey, bookingBody(s.cut, at(day, time), { providerId: person }));
    const morning = await booking(3, "10:00");
    const afternoon = await booking(3, "15:00");
    const nextDay = await booking(4, "10:00");
    const patch = async (body: object) => {
      const res = await api("PATCH", `/providers/${person}`, { key: s.apiKey, body });
      expect(res.status).toBe(200);
      await runDurableObjectAlarm(providerStub(s.businessId, person));
    };
    const conflictsOf = async (id: string) =>
      (await json(await api("GET", `/bookings/${id}`, { key: s.apiKey }))).conflicts as { kind: string }[];
    const kinds = async (id: string) => (await conflictsOf(id)).map((c) => c.kind);
    const told = async () => {
      const rows = await db().select().from(webhookEvents).where(eq(webhookEvents.businessId, s.businessId));
      return rows
        .map((r) => r.type)
        .filter((type) => type.startsWith("booking.conflict"))
        .sort();
    };

    await patch({ weeklySchedule: MORNINGS });
    await eventually(async () => ((await kinds(afternoon.id)).length ? true : undefined), "the afternoon marked");
    expect(await kinds(afternoon.id)).toEqual(["outside_hours"]);
    expect(await kinds(morning.id)).toEqual([]);
    expect(await kinds(nextDay.id)).toEqual([]);

    await patch({ dateOverrides: [{ date: dayOf(4), intervals: [] }] });
    await eventually(async () => ((await kinds(nextDay.id)).length ? true : undefined), "the closed day marked");
    expect(await kinds(nextDay.id)).toEqual(["time_off"]);
    expect(await kinds(afternoon.id)).toEqual(["outside_hours"]);
    const listed = await json(await api("GET", "/bookings?conflicted=true", { key: s.apiKey }));
    expect(listed.data.map((b: { id: string }) => b.id).sort()).toEqual([afternoon.id, nextDay.id].sort());
    // A change that moves nothing new (a name) sends nothing more.
    await patch({ name: "Stylist Zero" });
    await eventually(
      async () => ((await told()).length === 2 ? true : undefined),
      "two booking.conflict events, no more",
    );
    expect(await told()).toEqual(["booking.conflict", "booking.conflict"]);

    await patch({ weeklySchedule: everyDay, dateOverrides: [] });
    await eventually(async () => ((await kinds(afternoon.id)).length ? undefined : true), "the afternoon cleared");
    expect(await kinds(nextDay.id)).toEqual([]);
    await eventually(async () => ((await told()).length === 4 ? true : undefined), "two resolutions");
    expect(await told()).toEqual([
      "booking.conflict",
      "booking.conflict",
      "booking.conflict_resolved",
      "booking.conflict_resolved",
    ]);
  });

  it("found within 10 s of the change on the object's own alarm, with nobody running it", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const booking = await book(s.apiKey, bookingBody(s.cut, at(2, "15:00"), { providerId: person }));
    const changed = Date.now();
    const res = await api("PATCH", `/providers/${person}`, { key: s.apiKey, body: { weeklySchedule: MORNINGS } });
    expect(res.status).toBe(200);
    const marked = await eventually(async () => {
      const body = await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }));
      return body.conflicts.length ? body : undefined;
    }, "the conflict on the booking, within 10 s");
    expect(marked.conflicts).toMatchObject([{ kind: "outside_hours" }]);
    expect(Date.now() - changed).toBeLessThan(10_000);
  });
});
