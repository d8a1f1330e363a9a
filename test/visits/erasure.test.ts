/**
 * Erasure reaches what visits, series and the waitlist keep of a person: the segments, the
 * answer a retry under the same Idempotency-Key replays (in D1 and in the entry calendar), and
 * their waitlist entries.
 */
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { at, book, bookingBody } from "../support/bookings";
import { postVisit, spa, visitBody } from "../support/visits";
import { join, joinBody } from "../support/waitlist";

describe("erasing a customer", () => {
  it("scrubs their visit's segments, its replayed answer, and their waitlist entries", async () => {
    const s = await spa();
    const email = "grace@example.com";
    const body = visitBody(at(2, "10:00"), [{ serviceId: s.cut }, { serviceId: s.massage }], {
      customerEmail: email,
      notes: "Allergic to lavender.",
    });
    const visit = await json(await postVisit(s.apiKey, body, "visit-to-erase"));
    // A waitlist entry of the same business with the same e-mail: the cut's 11:00 slot is full.
    await book(s.apiKey, bookingBody(s.cut, at(2, "11:00"), { providerId: s.stylists[0] }));
    await book(s.apiKey, bookingBody(s.cut, at(2, "11:00"), { providerId: s.stylists[1] }));
    const waiting = await join(
      s.apiKey,
      joinBody({ serviceId: s.cut, start: at(2, "11:00") }, { customerEmail: email }),
    );

    const customerId = visit.bookings[0].customerId as string;
    expect((await api("DELETE", `/customers/${customerId}`, { key: s.apiKey })).status).toBe(204);

    const stored = await json(await api("GET", `/appointments/${visit.id}`, { key: s.apiKey }));
    for (const b of stored.bookings) expect(b).toMatchObject({ customerName: "Erased customer", notes: null });
    const replay = await postVisit(s.apiKey, body, "visit-to-erase");
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    const replayed = await replay.text();
    expect(replayed).not.toContain(email);
    expect(replayed).not.toContain("lavender");
    const entry = await json(await api("GET", `/waitlist/${waiting.id}`, { key: s.apiKey }));
    expect(entry.customerEmail).not.toBe(email);
    expect(entry.customerName).toBe("Erased customer");
  });
});
