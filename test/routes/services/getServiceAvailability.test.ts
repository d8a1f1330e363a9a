/**
 * GET /services/{id}/availability: the live slot calendar. (The slot rules — notice, horizon,
 * time zones, the 2,000-slot bound — are proven in test/bookings/availability.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { allDay, at, availability, book, bookingBody, type Slot } from "../../support/bookings";
import { createResource, hold, newProvider, salon } from "../../support/fixtures";
import { documentedPattern, expectWritableInstants, LAST_INSTANT } from "../../support/instants";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const slotsOf = (key: string, serviceId: string, query: string) =>
  api("GET", `/services/${serviceId}/availability${query}`, { key });

/** The slot starting at `startTime` in an availability body (with `providers` on a service with providers). */
const slotAt = (body: { slots: (Slot & { providers?: string[] })[] }, startTime: string) =>
  body.slots.find((s) => Date.parse(s.startTime) === Date.parse(startTime));

describe("happy", () => {
  it("lists the slots starting in [from, to) with their seats: a booking counts as booked, a hold as held", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 3 });
    await book(apiKey, bookingBody(service.id, at(2, "10:00")));
    await hold(apiKey, service.id, at(2, "10:00"));
    const res = await slotsOf(apiKey, service.id, `?from=${at(2, "10:00")}&to=${at(2, "11:00")}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({
      serviceId: service.id,
      timezone: "UTC",
      from: new Date(at(2, "10:00")).toISOString(),
      to: new Date(at(2, "11:00")).toISOString(),
      slots: [
        {
          startTime: new Date(at(2, "10:00")).toISOString(),
          endTime: new Date(at(2, "10:30")).toISOString(),
          capacity: 3,
          booked: 1,
          held: 1,
          remaining: 1,
          bookable: true,
        },
        {
          startTime: new Date(at(2, "10:30")).toISOString(),
          endTime: new Date(at(2, "11:00")).toISOString(),
          capacity: 3,
          booked: 0,
          held: 0,
          remaining: 3,
          bookable: true,
        },
      ],
    });
  });

  it("on a service with providers each slot names the free providers; providerId shows one person's seats", async () => {
    const s = await salon(2);
    const [busy, free] = s.providerIds as [string, string];
    await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: busy }));
    const all = await availability(s.apiKey, s.cut, at(3, "10:00"), at(3, "11:00"));
    expect(slotAt(all, at(3, "10:00"))).toMatchObject({ providers: [free], remaining: 1, bookable: true });
    expect(slotAt(all, at(3, "10:30"))?.providers).toEqual([busy, free].sort());
    // The person is busy for every service they perform, not only the one booked.
    expect(
      slotAt(await availability(s.apiKey, s.colour, at(3, "10:00"), at(3, "10:30")), at(3, "10:00")),
    ).toMatchObject({ providers: [free] });
    const onlyBusy = await json(
      await slotsOf(s.apiKey, s.cut, `?from=${at(3, "10:00")}&to=${at(3, "10:30")}&providerId=${busy}`),
    );
    expect(onlyBusy.slots).toEqual([expect.objectContaining({ providers: [], remaining: 0, bookable: false })]);
  });
  it("slots past a reached limit are not bookable and say limit_reached; providers lists only those under theirs", async () => {
    const s = await salon(2, { limits: { perWeek: 50 } });
    const [ana, ben] = s.providerIds as [string, string];
    await api("PATCH", `/providers/${ana}`, { key: s.apiKey, body: { limits: { perDay: 1 } } });
    await book(s.apiKey, bookingBody(s.colour, at(3, "09:00"), { providerId: ana }));
    const day = await availability(s.apiKey, s.cut, at(3, "09:00"), at(3, "17:00"));
    // Ana is at her limit that day: only Ben is listed, and the slots stay bookable with him.
    expect(slotAt(day, at(3, "12:00"))).toMatchObject({ bookable: true, providers: [ben] });
    expect(slotAt(day, at(3, "12:00"))?.reason).toBeUndefined();
    // Ben busy at 12:30: nobody can take it, but not because everyone is at a limit (as a booking is refused).
    await book(s.apiKey, bookingBody(s.colour, at(3, "12:30"), { providerId: ben }));
    const busy = slotAt(await availability(s.apiKey, s.cut, at(3, "12:30"), at(3, "13:00")), at(3, "12:30"));
    expect(busy).toMatchObject({ bookable: false, providers: [] });
    expect(busy?.reason).toBeUndefined();
    // Ben at his limit too: every slot of the day says limit_reached.
    await api("PATCH", `/providers/${ben}`, { key: s.apiKey, body: { limits: { perDay: 1 } } });
    const later = await availability(s.apiKey, s.cut, at(3, "14:00"), at(3, "15:00"));
    expect(slotAt(later, at(3, "14:00"))).toMatchObject({ bookable: false, reason: "limit_reached", providers: [] });
    // The service's own limit closes every slot of its week, whoever is free.
    const week = await createService(s.apiKey, { name: "Weekly", limits: { perWeek: 1 } });
    await book(s.apiKey, bookingBody(week.id, at(3, "09:00")));
    const closed = await availability(s.apiKey, week.id, at(3, "10:00"), at(3, "11:00"));
    expect(closed.slots).toEqual([
      expect.objectContaining({ bookable: false, reason: "limit_reached", remaining: 1 }),
      expect.objectContaining({ bookable: false, reason: "limit_reached", remaining: 1 }),
    ]);
  });

  it("a range reaching past year 9999 is cut at its last instant: every time matches the document's pattern", async () => {
    const { apiKey } = await createAccount();
    const person = await newProvider(apiKey, "Night shift", { weeklySchedule: allDay });
    const room = (await createResource(apiKey)).id as string;
    const plain = await createService(apiKey, { weeklySchedule: allDay });
    const assignees = await createService(apiKey, {
      name: "Staffed",
      weeklySchedule: allDay,
      providerIds: [person],
      resourceIds: [room],
    });
    const pattern = await documentedPattern("Availability", "to");
    const lastStarts = ["9999-12-31T22:30:00.000Z", "9999-12-31T23:00:00.000Z"];
    for (const query of [
      // `to` defaults to from + 7 days: cut.
      `${plain.id}/availability?from=9999-12-31T22:30:00Z`,
      `${assignees.id}/availability?from=9999-12-31T22:30:00Z`,
      `${assignees.id}/availability?from=9999-12-31T22:30:00Z&providerId=${person}`,
      `${assignees.id}/availability?from=9999-12-31T22:30:00Z&resourceId=${room}`,
    ]) {
      const res = await api("GET", `/services/${query}`, { key: apiKey });
      expect(res.status, query).toBe(200);
      const body = await json(res);
      expect(body.to).toBe(LAST_INSTANT);
      // The 23:30 slot would end at midnight of year 10000: it is not listed.
      expect(body.slots.map((slot: Slot) => slot.startTime)).toEqual(lastStarts);
      expect(body.slots.at(-1).endTime).toBe("9999-12-31T23:30:00.000Z");
      expectWritableInstants(body, pattern);
    }
    // A `to` the client sends stays as sent; slots still end by the last instant.
    const sent = await json(await slotsOf(apiKey, plain.id, "?from=9999-12-31T22:30:00Z&to=9999-12-31T23:59:59Z"));
    expect(sent.to).toBe("9999-12-31T23:59:59.000Z");
    expect(sent.slots.map((slot: Slot) => slot.startTime)).toEqual(lastStarts);
    expectWritableInstants(sent, pattern);
  });
});

describe("error", () => {
  it("a from at the last instant leaves no range: a 422 on from", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { weeklySchedule: allDay });
    await validationError(await slotsOf(apiKey, service.id, `?from=${LAST_INSTANT}`), "from");
  });

  it("to not after from, or more than 31 days after it, is a 422 on to", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await slotsOf(apiKey, service.id, `?from=${at(2, "10:00")}&to=${at(2, "10:00")}`), "to");
    await validationError(await slotsOf(apiKey, service.id, `?from=${at(1, "00:00")}&to=${at(33, "00:00")}`), "to");
  });

  it("a providerId that does not perform the service is a 422 on providerId", async () => {
    const s = await salon(1);
    const outsider = await newProvider(s.apiKey, "Outsider");
    const res = await slotsOf(s.apiKey, s.cut, `?from=${at(3, "10:00")}&to=${at(3, "11:00")}&providerId=${outsider}`);
    await validationError(res, "providerId");
  });

  it("an unknown service is 404, an id longer than 64 characters 422", async () => {
    const { apiKey } = await createAccount();
    await problem(await slotsOf(apiKey, "svc_unknown", ""), 404, "not_found");
    await validationError(await slotsOf(apiKey, `svc_${"x".repeat(61)}`, ""), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(await api("GET", `/services/${service.id}/availability`), false);
  });

  it("a revoked key gets a 401 and no slots", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const res = await slotsOf(await revokedKey(businessId), service.id, `?from=${at(2, "10:00")}&to=${at(2, "11:00")}`);
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("slots");
  });

  it("another business's service is the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey, { timezone: "Europe/Vienna" });
    const unknownId = unknownIdLike(service.id);
    await expectNotFoundLikeUnknown(
      await slotsOf(other.apiKey, service.id, ""),
      service.id,
      await slotsOf(other.apiKey, unknownId, ""),
      unknownId,
      ["Owner Clinic", "Europe/Vienna", owner.businessId],
    );
  });
});
