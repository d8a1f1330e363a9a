/**
 * POST /holds: keep a seat for a few minutes. (Storms, expiry and the provider claims of holds are
 * proven in test/holds/holds.test.ts.)
 */
import { describe, expect, it } from "vitest";
import {
  api,
  createAccount,
  createService,
  expectUnreadableBodiesRefused,
  json,
  problem,
  validationError,
} from "../../support/api";
import { at, book, bookingBody, freshEmail, plus, postBooking, slotAt } from "../../support/bookings";
import { hold, placeHold, salon } from "../../support/fixtures";
import { expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const holdFields = [
  "bookingId",
  "createdAt",
  "endTime",
  "expiresAt",
  "id",
  "providerId",
  "serviceId",
  "startTime",
  "status",
];

describe("happy", () => {
  it("201 with Location and the hold, HELD for ttlSeconds (600 by default); the seat is taken", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const start = at(3, "10:00");
    const res = await placeHold(apiKey, service.id, start);
    expect(res.status).toBe(201);
    const hold = await json(res);
    expect(Object.keys(hold).sort()).toEqual(holdFields);
    expect(hold.id).toMatch(/^hld_[0-9a-z]{26}$/);
    expect(res.headers.get("Location")).toBe(`/api/v1/holds/${hold.id}`);
    expect(hold).toMatchObject({
      serviceId: service.id,
      providerId: null,
      startTime: new Date(start).toISOString(),
      endTime: new Date(plus(start, 30)).toISOString(),
      status: "HELD",
      bookingId: null,
    });
    expect(Date.parse(hold.expiresAt) - Date.parse(hold.createdAt)).toBe(600_000);
    expect(await json(await api("GET", `/holds/${hold.id}`, { key: apiKey }))).toEqual(hold);
    expect(await slotAt(apiKey, service.id, start)).toMatchObject({ held: 1, remaining: 0, bookable: false });
    expect((await postBooking(apiKey, bookingBody(service.id, start))).status).toBe(409);
  });

  it("takes ttlSeconds from 60 to 1800", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 2 });
    for (const ttlSeconds of [60, 1800]) {
      const hold = await json(await placeHold(apiKey, service.id, at(3, "11:00"), { ttlSeconds }));
      expect(Date.parse(hold.expiresAt) - Date.parse(hold.createdAt)).toBe(ttlSeconds * 1000);
    }
  });

  it("on a service with providers the hold names one, and keeps that person's time for every service", async () => {
    const s = await salon(1);
    const [provider] = s.providerIds as [string];
    const hold = await json(await placeHold(s.apiKey, s.cut, at(3, "10:00")));
    expect(hold.providerId).toBe(provider);
    const other = await postBooking(s.apiKey, bookingBody(s.colour, at(3, "10:00")));
    expect((await problem(other, 409, "slot_unavailable")).reason).toBe("no_provider_available");
  });
});

describe("error", () => {
  it.each([
    ["ttlSeconds 59", { ttlSeconds: 59 }, "ttlSeconds"],
    ["ttlSeconds 1801", { ttlSeconds: 1801 }, "ttlSeconds"],
    ["a duration other than the service's", { endTime: plus(at(3, "10:00"), 45) }, "endTime"],
    ["a start in the past", { startTime: at(-1, "10:00"), endTime: plus(at(-1, "10:00"), 30) }, "startTime"],
    ["an unknown field", { customerName: "Ada" }, "customerName"],
  ])("%s is a 422 naming the field; no seat is held", async (_, extra, path) => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await validationError(await placeHold(apiKey, service.id, at(3, "10:00"), extra), path);
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 0, remaining: 1 });
  });

  it("an unknown service is 422 service_not_found, an inactive one 422 service_inactive", async () => {
    const { apiKey } = await createAccount();
    const inactive = await createService(apiKey, { active: false });
    await problem(await placeHold(apiKey, "svc_unknown", at(3, "10:00")), 422, "service_not_found");
    await problem(await placeHold(apiKey, inactive.id, at(3, "10:00")), 422, "service_inactive");
  });

  it("a full slot and a time outside working hours are 409 slot_unavailable with their reason", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await book(apiKey, bookingBody(service.id, at(3, "10:00")));
    expect((await problem(await placeHold(apiKey, service.id, at(3, "10:00")), 409, "slot_unavailable")).reason).toBe(
      "fully_booked",
    );
    expect((await problem(await placeHold(apiKey, service.id, at(3, "06:00")), 409, "slot_unavailable")).reason).toBe(
      "outside_working_hours",
    );
  });

  it("a providerId that does not perform the service is a 422 at providerId", async () => {
    const s = await salon(1);
    const plain = await createService(s.apiKey, { name: "No providers" });
    const [provider] = s.providerIds as [string];
    await validationError(await placeHold(s.apiKey, plain.id, at(3, "10:00"), { providerId: provider }), "providerId");
  });

  it("the 51st live hold of one API key is a 409 hold_limit_reached", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 60 });
    for (let i = 0; i < 50; i++) expect((await placeHold(apiKey, service.id, at(5, "10:00"))).status).toBe(201);
    await problem(await placeHold(apiKey, service.id, at(5, "10:00")), 409, "hold_limit_reached");
    expect(await slotAt(apiKey, service.id, at(5, "10:00"))).toMatchObject({ held: 50 });
  });

  it("booked (CONSUMED) holds are no longer live: 50 holds turned into bookings leave room for a 51st", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { capacity: 60 });
    for (let i = 0; i < 50; i++) {
      const placed = await hold(apiKey, service.id, at(5, "10:00"));
      const booked = await postBooking(apiKey, { holdId: placed.id, customerName: "Ada", customerEmail: freshEmail() });
      expect(booked.status).toBe(201);
    }
    expect(await slotAt(apiKey, service.id, at(5, "10:00"))).toMatchObject({ booked: 50, held: 0 });
    const res = await placeHold(apiKey, service.id, at(5, "10:00"));
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it("malformed JSON is 400, a body that is not JSON 415; no seat is held", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await expectUnreadableBodiesRefused(apiKey, "/holds", {
      serviceId: service.id,
      startTime: at(3, "10:00"),
      endTime: at(3, "10:30"),
    });
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 0 });
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, no seat held", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(await placeHold("", service.id, at(3, "10:00")), false);
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 0, remaining: 1 });
  });

  it("a revoked key: 401, no seat held", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    await expectUnauthorized(await placeHold(await revokedKey(businessId), service.id, at(3, "10:00")), true);
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 0, remaining: 1 });
  });

  it("another business's service is refused like an unknown one, and its seat stays free", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey, { name: "Owner's consultation" });
    const unknownId = unknownIdLike(service.id);
    const foreign = await placeHold(other.apiKey, service.id, at(3, "10:00"));
    const text = await foreign.clone().text();
    const foreignBody = await problem(foreign, 422, "service_not_found");
    const unknownBody = await problem(
      await placeHold(other.apiKey, unknownId, at(3, "10:00")),
      422,
      "service_not_found",
    );
    expect(foreignBody.detail.replace(service.id, "<id>")).toBe(unknownBody.detail.replace(unknownId, "<id>"));
    for (const secret of ["Owner Clinic", "Owner's consultation", owner.businessId]) expect(text).not.toContain(secret);
    expect(await slotAt(owner.apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 0, remaining: 1 });
  });
});
