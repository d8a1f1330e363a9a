/**
 * A new conflict's e-mails: the business's `contactEmail` gets one whenever it is set, the
 * customer one asking them to choose another time when the business has
 * `conflicts.notifyCustomer` (with e-mails on) — each once, however often the cause is seen again
 * — and that customer's manage link may move the booking inside the notice window, which it
 * may not without the setting.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookEvents } from "../../src/db/schema";
import { recordConflictMessages } from "../../src/messages/conflict-records";
import { api, db, json, problem } from "../support/api";
import { at, book, bookingBody, plus } from "../support/bookings";
import { providerStub } from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { everyDay, salon } from "../support/fixtures";
import { linkPath, viaLink } from "../support/manage-links";
import { eventOf, messagesOf, redeliver, sentTo } from "../support/messages";

const MORNINGS = Object.fromEntries(Object.keys(everyDay).map((d) => [d, [{ start: "09:00", end: "12:00" }]]));
/** A week's notice: a booking three days ahead is inside it. */
const WEEK = 7 * 24 * 60;

async function narrowedUnder(notifyCustomer: boolean) {
  const s = await salon(1, { rescheduleNoticeMinutes: WEEK });
  const [person] = s.providerIds as [string];
  const contactEmail = `desk-${crypto.randomUUID().slice(0, 8)}@salon.example`;
  const settings = { contactEmail, emails: { enabled: true }, conflicts: { notifyCustomer } };
  const res = await api("PATCH", "/business", { key: s.apiKey, body: settings });
  expect(res.status).toBe(200);
  expect((await json(res)).conflicts).toEqual({ notifyCustomer });
  const customerEmail = `ada-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const booking = await book(s.apiKey, bookingBody(s.cut, at(3, "15:00"), { providerId: person, customerEmail }));
  const patch = async (body: object) => {
    expect((await api("PATCH", `/providers/${person}`, { key: s.apiKey, body })).status).toBe(200);
    await runDurableObjectAlarm(providerStub(s.businessId, person));
  };
  const path = linkPath(booking.manageUrl);
  const morning = at(3, "10:00");
  const move = () => viaLink("POST", `${path}/reschedule`, { startTime: morning, endTime: plus(morning, 30) });
  return { s, booking, contactEmail, customerEmail, patch, move };
}

describe("a new conflict's e-mails", () => {
  it("notifyCustomer on: one to the business, one to the customer with the manage link, however often seen; the link may then move it inside the notice", async () => {
    const t = await narrowedUnder(true);
    // Before anything stops fitting, the week's notice holds.
    await problem(await t.move(), 409, "policy_window");

    await t.patch({ weeklySchedule: MORNINGS });
    const alert = await eventually(async () => sentTo(t.contactEmail)[0], "the business's e-mail");
    const asked = await eventually(
      async () => sentTo(t.customerEmail).find((m) => m.message.subject?.startsWith("Please")),
      "the customer's e-mail asking for another time",
    );
    expect(alert.message.subject).toMatch(/^A booking no longer fits: Cut, /);
    expect(String(alert.message.text)).toContain("hours no longer cover");
    expect(String(alert.message.text)).toContain(t.customerEmail);
    expect(asked.message.subject).toMatch(/^Please choose a new time: Cut, /);
    expect(String(asked.message.text)).toContain(t.booking.manageUrl);
    // What no longer holds is the business's to know, not the customer's.
    expect(String(asked.message.text)).not.toContain("no longer cover");

    // Seen again (a change that adds nothing, and more alarms): still one each.
    await t.patch({ name: "Stylist Zero" });
    await t.patch({ weeklySchedule: MORNINGS });
    const listed = await messagesOf(t.s.apiKey, t.booking.id);
    expect(listed.map((m) => m.kind).sort()).toEqual(["confirmation", "conflict", "conflict_alert"]);
    // A reset after the event reached D1 but before the queue took it replays both writes, and the
    // queue may hand the event over twice: nothing is recorded or sent again.
    const eventId = eventOf((listed.find((m) => m.kind === "conflict") as { id: string }).id);
    const [event] = await db().select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
    expect(await recordConflictMessages(env.DB, { ...(event as typeof webhookEvents.$inferSelect), mail: null })).toBe(
      0,
    );
    expect(await redeliver(eventId)).toBe(false);
    expect(await messagesOf(t.s.apiKey, t.booking.id)).toHaveLength(3);
    expect(sentTo(t.contactEmail)).toHaveLength(1);
    expect(sentTo(t.customerEmail)).toHaveLength(2);

    // The customer moves it into the new hours, inside the week's notice; the conflict clears.
    const moved = await t.move();
    expect(moved.status).toBe(200);
    await runDurableObjectAlarm(providerStub(t.s.businessId, t.s.providerIds[0] as string));
    await eventually(async () => {
      const now = await json(await api("GET", `/bookings/${t.booking.id}`, { key: t.s.apiKey }));
      return now.conflicts.length === 0 ? now : undefined;
    }, "the conflict cleared by the move");
  });

  it("notifyCustomer off: the business is told, the customer is not, and the notice still holds for the link", async () => {
    const t = await narrowedUnder(false);
    await t.patch({ weeklySchedule: MORNINGS });
    await eventually(async () => sentTo(t.contactEmail)[0], "the business's e-mail");
    await eventually(async () => {
      const now = await json(await api("GET", `/bookings/${t.booking.id}`, { key: t.s.apiKey }));
      return now.conflicts.length === 1 ? now : undefined;
    }, "the conflict on the booking");
    await problem(await t.move(), 409, "policy_window");
    const kinds = (await messagesOf(t.s.apiKey, t.booking.id)).map((m) => m.kind).sort();
    expect(kinds).toEqual(["confirmation", "conflict_alert"]);
    expect(sentTo(t.customerEmail)).toHaveLength(1);
  });
});
