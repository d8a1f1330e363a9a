/**
 * Notices of changes and reminders: a move and a cancellation, whoever makes them (the API, the
 * customer's manage link), each mail the customer once with an invite that updates or removes the
 * same calendar event (same UID, a higher SEQUENCE); a service's reminder mails them at the time
 * the webhook fires.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { api, json } from "../support/api";
import { at, bookingBody, calendarStub, plus } from "../support/bookings";
import { linkPath, viaLink } from "../support/manage-links";
import { inviteOf, mailingBusiness, sentTo, settledMessages } from "../support/messages";

describe("a move", () => {
  it("sends `rescheduled` with the new and the old time and an invite of the same event, SEQUENCE raised", async () => {
    const m = await mailingBusiness();
    const start = at(3, "10:00");
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, start) }),
    );
    await settledMessages(m.apiKey, booking.id, 1);
    const moved = { startTime: plus(start, 120), endTime: plus(start, 150) };
    const res = await api("POST", `/bookings/${booking.id}/reschedule`, { key: m.apiKey, body: moved });
    expect(res.status).toBe(200);
    const [confirmation, notice] = await settledMessages(m.apiKey, booking.id, 2);
    expect(notice).toMatchObject({ kind: "rescheduled", status: "sent" });
    expect(notice?.subject).toMatch(/^Booking moved: Haircut, now .*12:00 PM$/);
    const [first, second] = sentTo(booking.customerEmail);
    expect(second?.message.text).toContain("12:00 PM – 12:30 PM (UTC)");
    expect(second?.message.text).toContain("Previously: ");
    expect(second?.message.text).toContain("10:00 AM – 10:30 AM (UTC)");
    expect(second?.message.text).toContain(booking.manageUrl);
    // Mail apps thread it under the confirmation.
    expect(second?.message.headers).toMatchObject({
      "In-Reply-To": confirmation?.messageIdHeader,
      References: confirmation?.messageIdHeader,
    });
    const before = inviteOf(first as never)?.events[0];
    const after = inviteOf(second as never);
    expect(after?.method).toBe("REQUEST");
    expect(after?.events).toEqual([
      expect.objectContaining({
        uid: booking.id,
        start: new Date(moved.startTime).toISOString(),
        end: new Date(moved.endTime).toISOString(),
        status: "CONFIRMED",
      }),
    ]);
    expect(after?.events[0]?.sequence).toBeGreaterThan(before?.sequence as number);
  });
});

describe("a cancellation", () => {
  it("by the API sends `cancelled` with the reason and a METHOD:CANCEL of the same event; no manage link (it is dead)", async () => {
    const m = await mailingBusiness();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "11:00")) }),
    );
    const moved = { startTime: at(3, "13:00"), endTime: at(3, "13:30") };
    expect((await api("POST", `/bookings/${booking.id}/reschedule`, { key: m.apiKey, body: moved })).status).toBe(200);
    const cancel = { reason: "The stylist is ill." };
    expect((await api("POST", `/bookings/${booking.id}/cancel`, { key: m.apiKey, body: cancel })).status).toBe(200);
    const messages = await settledMessages(m.apiKey, booking.id, 3);
    expect(messages.map((x) => [x.kind, x.status])).toEqual([
      ["confirmation", "sent"],
      ["rescheduled", "sent"],
      ["cancelled", "sent"],
    ]);
    const mails = sentTo(booking.customerEmail);
    const last = mails[2]?.message as EmailMessageBuilder;
    expect(last.subject).toMatch(/^Booking cancelled: Haircut, .*1:00 PM$/);
    expect(last.text).toContain("Reason: The stylist is ill.");
    expect(last.text).not.toContain("/manage/");
    expect(last.html).not.toContain("href=");
    const sequences = mails.map((mail) => inviteOf(mail)?.events[0]?.sequence as number);
    expect(sequences[1]).toBeGreaterThan(sequences[0] as number);
    expect(sequences[2]).toBeGreaterThan(sequences[1] as number);
    const invite = inviteOf(mails[2] as never);
    expect(invite?.attachment.filename).toBe("cancel.ics");
    expect(invite?.method).toBe("CANCEL");
    expect(invite?.events[0]).toMatchObject({ uid: booking.id, status: "CANCELLED" });
  });

  it("by the customer's manage link sends the notice too", async () => {
    const m = await mailingBusiness();
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, at(3, "14:00")) }),
    );
    const res = await viaLink("POST", `${linkPath(booking.manageUrl)}/cancel`, { reason: "Cannot come." });
    expect(res.status).toBe(200);
    const [, cancelled] = await settledMessages(m.apiKey, booking.id, 2);
    expect(cancelled).toMatchObject({ kind: "cancelled", status: "sent" });
    expect(sentTo(booking.customerEmail)[1]?.message.text).toContain("Reason: Cannot come.");
  });
});

describe("a reminder", () => {
  it("goes out when the service's reminder is due, as the webhook does, without an invite", async () => {
    const m = await mailingBusiness({}, { reminders: [{ offsetMinutes: 60 }] });
    const start = at(3, "15:00");
    const booking = await json(
      await api("POST", "/bookings", { key: m.apiKey, body: bookingBody(m.service.id, start) }),
    );
    await settledMessages(m.apiKey, booking.id, 1);
    // An hour before the start, the calendar's alarm raises the reminder.
    vi.setSystemTime(Date.parse(start) - 59 * 60_000);
    try {
      await runDurableObjectAlarm(calendarStub(m.businessId, m.service.id));
    } finally {
      vi.useRealTimers();
    }
    const [, reminder] = await settledMessages(m.apiKey, booking.id, 2);
    expect(reminder).toMatchObject({ kind: "reminder", status: "sent" });
    expect(reminder?.subject).toMatch(/^Reminder: Haircut, .*3:00 PM$/);
    const mail = sentTo(booking.customerEmail)[1]?.message as EmailMessageBuilder;
    expect(mail.text).toContain("a reminder of your booking with Salon Süd.");
    expect(mail.text).toContain(booking.manageUrl);
    expect(mail.attachments).toBeUndefined();
  });
});
