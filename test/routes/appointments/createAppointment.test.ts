/** POST /appointments: a visit of several services back to back, booked whole or not at all. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { reconcileClaimed } from "../../../src/calendar/d1/reconcile-claimed";
import { reconcile } from "../../../src/calendar/d1/reconcile-services";
import { api, createAccount, createService, json, problem, utc, validationError } from "../../support/api";
import { at, book, bookingBody, calendarStub, d1Bookings, plus, postBooking, slotAt } from "../../support/bookings";
import { expectUnauthorized, revokedKey } from "../../support/security";
import { postVisit, type Spa, spa, visitBody } from "../../support/visits";

type Segment = { serviceId: string; startTime: string; endTime: string; providerId: string | null };
const spans = (visit: { bookings: Segment[] }) => visit.bookings.map((b) => [b.serviceId, b.startTime, b.endTime]);

/** Every calendar of the spa agrees with D1, and nothing is held that no booking explains. */
async function expectConsistent(s: Spa) {
  const services = await reconcile(env, { businessId: s.businessId });
  const claimed = await reconcileClaimed(env, { businessId: s.businessId });
  expect(services.differences.filter((d) => d.kind !== "pending_in_outbox")).toEqual([]);
  expect(claimed.differences).toEqual([]);
}

/** What the spa holds anywhere: D1's bookings, each service calendar's rows, the stylists' slots. */
async function holdings(s: Spa) {
  return {
    d1: (await d1Bookings(s.businessId)).map((b) => b.id).sort(),
    calendars: await Promise.all(
      [s.cut, s.colour, s.massage].map(async (id) => (await calendarStub(s.businessId, id).snapshot()).counters),
    ),
  };
}

describe("happy", () => {
  it("201: a cut then a colour by one stylist, back to back despite both buffers; each segment a booking", async () => {
    const s = await spa();
    const start = at(2, "10:00");
    const [stylist] = s.stylists;
    const body = visitBody(start, [
      { serviceId: s.cut, providerId: stylist },
      { serviceId: s.colour, providerId: stylist },
    ]);
    const res = await postVisit(s.apiKey, body);
    expect(res.status).toBe(201);
    const visit = await json(res);
    expect(res.headers.get("Location")).toBe(`/api/v1/appointments/${visit.id}`);
    expect(visit).toMatchObject({ startTime: utc(start), endTime: utc(plus(start, 90)), status: "CONFIRMED" });
    expect(visit.id).toMatch(/^apt_/);
    expect(spans(visit)).toEqual([
      [s.cut, utc(start), utc(plus(start, 30))],
      [s.colour, utc(plus(start, 30)), utc(plus(start, 90))],
    ]);
    for (const b of visit.bookings) {
      expect(b).toMatchObject({ appointmentId: visit.id, providerId: stylist, status: "CONFIRMED" });
      expect(b.manageUrl).toMatch(new RegExp(`/api/v1/manage/${b.id}\\.`));
    }
    expect(visit.bookings[0].customerId).toBe(visit.bookings[1].customerId);
    // Each segment is a booking like any other: read by id, in D1, in its own calendar.
    expect(await json(await api("GET", `/bookings/${visit.bookings[1].id}`, { key: s.apiKey }))).toEqual(
      visit.bookings[1],
    );
    expect((await d1Bookings(s.businessId)).map((b) => b.appointmentId)).toEqual([visit.id, visit.id]);
    const colour = await calendarStub(s.businessId, s.colour).snapshot();
    expect(colour.bookings.map((b) => b.id)).toEqual([visit.bookings[1].id]);
    expect(await json(await api("GET", `/appointments/${visit.id}`, { key: s.apiKey }))).toEqual(visit);
    // The stylist is taken for both: a single booking at the colour's time is refused.
    const clash = await postBooking(s.apiKey, bookingBody(s.cut, plus(start, 30), { providerId: stylist }));
    await problem(clash, 409, "slot_unavailable");
    await expectConsistent(s);
  });

  it("assigns each segment a stylist when none is named, and a room's unit to the massage segment", async () => {
    const s = await spa();
    const start = at(2, "11:00");
    const visit = await json(
      await postVisit(s.apiKey, visitBody(start, [{ serviceId: s.massage }, { serviceId: s.cut }])),
    );
    expect(visit.bookings.map((b: { resourceIds: string[] }) => b.resourceIds)).toEqual([[s.room], []]);
    expect(s.stylists).toContain(visit.bookings[1].providerId);
    expect(await slotAt(s.apiKey, s.massage, start)).toMatchObject({ bookable: false });
    await expectConsistent(s);
  });

  it("one segment is a visit too; the same Idempotency-Key replays the answer and books nothing more", async () => {
    const s = await spa();
    const body = visitBody(at(3, "09:00"), [{ serviceId: s.massage }]);
    const first = await postVisit(s.apiKey, body, "visit-once");
    const again = await postVisit(s.apiKey, body, "visit-once");
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
    expect(await d1Bookings(s.businessId)).toHaveLength(1);
  });
});

describe("error", () => {
  it("409 naming the segment whose stylist is busy; nothing of the visit is held anywhere", async () => {
    const s = await spa();
    const [stylist] = s.stylists;
    const start = at(2, "10:00");
    await book(s.apiKey, bookingBody(s.cut, plus(start, 60), { providerId: stylist }));
    const before = await holdings(s);
    const res = await postVisit(
      s.apiKey,
      visitBody(start, [
        { serviceId: s.cut, providerId: stylist },
        { serviceId: s.colour, providerId: stylist },
      ]),
    );
    const body = await problem(res, 409, "slot_unavailable");
    expect(body).toMatchObject({ segment: 1, reason: "provider_busy" });
    expect(await holdings(s)).toEqual(before);
    // The first segment's time and person are free again.
    expect((await postBooking(s.apiKey, bookingBody(s.cut, start, { providerId: stylist }))).status).toBe(201);
    await expectConsistent(s);
  });

  it("409 naming a later segment whose room is taken; the first segment's seat stays free", async () => {
    const s = await spa();
    const start = at(2, "10:00");
    // The massage (60-minute slots from 09:00) is booked 11:00–12:00; the visit's would run 10:30–11:30.
    await book(s.apiKey, bookingBody(s.massage, plus(start, 60), { endTime: plus(start, 120) }));
    const res = await postVisit(s.apiKey, visitBody(start, [{ serviceId: s.cut }, { serviceId: s.massage }]));
    expect(await problem(res, 409, "slot_unavailable")).toMatchObject({ segment: 1, reason: "resource_unavailable" });
    expect(await slotAt(s.apiKey, s.cut, start)).toMatchObject({ bookable: true });
    await expectConsistent(s);
  });

  it("409 outside_working_hours: the first segment off its slot grid (segment 0), a later one past closing (segment 1)", async () => {
    const s = await spa();
    const offGrid = await postVisit(s.apiKey, visitBody(at(2, "10:10"), [{ serviceId: s.cut }]));
    expect(await problem(offGrid, 409, "slot_unavailable")).toMatchObject({
      segment: 0,
      reason: "outside_working_hours",
    });
    const late = await postVisit(s.apiKey, visitBody(at(2, "16:30"), [{ serviceId: s.cut }, { serviceId: s.colour }]));
    expect(await problem(late, 409, "slot_unavailable")).toMatchObject({
      segment: 1,
      reason: "outside_working_hours",
    });
    expect(await d1Bookings(s.businessId)).toEqual([]);
  });

  it.each([
    ["no segments", { segments: [] }, "segments"],
    ["six segments", { segments: Array.from({ length: 6 }, () => ({ serviceId: "svc_x" })) }, "segments"],
    ["a segment without serviceId", { segments: [{}] }, "segments.0.serviceId"],
    ["an unknown field in a segment", { segments: [{ serviceId: "svc_x", colour: "red" }] }, "segments.0.colour"],
    ["no startTime", { startTime: undefined }, "startTime"],
  ])("422 for %s, naming the field", async (_, overrides, path) => {
    const s = await spa();
    const body = { ...visitBody(at(2, "10:00"), [{ serviceId: s.cut }]), ...overrides };
    await validationError(await postVisit(s.apiKey, body), path);
    expect(await d1Bookings(s.businessId)).toEqual([]);
  });

  it("422 naming the segment: an unknown service, a provider who does not perform it, answers that do not fit", async () => {
    const s = await spa();
    const start = at(2, "10:00");
    const unknown = await postVisit(s.apiKey, visitBody(start, [{ serviceId: s.cut }, { serviceId: "svc_nope" }]));
    expect((await problem(unknown, 422, "service_not_found")).errors).toEqual([
      { path: "segments.1.serviceId", message: "No such service." },
    ]);
    const stranger = await postVisit(s.apiKey, visitBody(start, [{ serviceId: s.massage, providerId: s.stylists[0] }]));
    await validationError(stranger, "segments.0.providerId");
    const answers = await postVisit(
      s.apiKey,
      visitBody(start, [{ serviceId: s.cut, answers: { nope: "x" } } as never]),
    );
    await validationError(answers, "segments.0.answers.nope");
    expect(await d1Bookings(s.businessId)).toEqual([]);
  });

  it("422 when a later segment would start past its service's horizon", async () => {
    const s = await spa();
    const near = await createService(s.apiKey, { name: "Near", maxAdvanceDays: 2 });
    // The cut may be booked a year ahead; the segment after it starts more than 2 days from now.
    const res = await postVisit(s.apiKey, visitBody(at(3, "09:00"), [{ serviceId: s.cut }, { serviceId: near.id }]));
    const body = await problem(res, 422, "validation_failed");
    expect(body).toMatchObject({ reason: "too_far_ahead" });
    expect(body.errors[0].path).toBe("segments.1.serviceId");
    expect(await d1Bookings(s.businessId)).toEqual([]);
  });

  it("the same Idempotency-Key with another visit is a 422 idempotency_key_reused", async () => {
    const s = await spa();
    expect((await postVisit(s.apiKey, visitBody(at(3, "09:00"), [{ serviceId: s.cut }]), "k1")).status).toBe(201);
    const other = await postVisit(s.apiKey, visitBody(at(3, "10:00"), [{ serviceId: s.cut }]), "k1");
    await problem(other, 422, "idempotency_key_reused");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one; nothing is booked", async () => {
    const s = await spa();
    const body = visitBody(at(2, "10:00"), [{ serviceId: s.cut }]);
    await expectUnauthorized(await api("POST", "/appointments", { body }), false);
    await expectUnauthorized(await postVisit(await revokedKey(s.businessId), body), true);
    expect(await d1Bookings(s.businessId)).toEqual([]);
  });

  it("another business's service is not found, exactly like an unknown one", async () => {
    const s = await spa();
    const other = await createAccount("Other");
    const theirs = await createService(other.apiKey, { name: "Theirs" });
    const res = await postVisit(s.apiKey, visitBody(at(2, "10:00"), [{ serviceId: s.cut }, { serviceId: theirs.id }]));
    const body = await problem(res, 422, "service_not_found");
    expect(body.detail).toBe(`No service ${theirs.id}.`);
    expect(await d1Bookings(other.businessId)).toEqual([]);
  });
});
