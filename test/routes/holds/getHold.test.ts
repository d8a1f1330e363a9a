/** GET /holds/{id}: the hold as its service's calendar knows it now. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, freshEmail, postBooking } from "../../support/bookings";
import { expireHold, hold } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const getHold = (key: string, id: string) => api("GET", `/holds/${id}`, { key });

describe("happy", () => {
  it("a live hold reads HELD, exactly as it was placed", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    const res = await getHold(apiKey, placed.id);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(placed);
  });

  it("a booked hold reads CONSUMED with its bookingId", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    const booking = await json(
      await postBooking(apiKey, { holdId: placed.id, customerName: "Ada", customerEmail: freshEmail() }),
    );
    expect(await json(await getHold(apiKey, placed.id))).toEqual({
      ...placed,
      status: "CONSUMED",
      bookingId: booking.id,
    });
  });

  it("a released hold reads RELEASED", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    expect((await api("DELETE", `/holds/${placed.id}`, { key: apiKey })).status).toBe(204);
    expect((await json(await getHold(apiKey, placed.id))).status).toBe("RELEASED");
  });

  it("a hold whose time ran out reads EXPIRED once its calendar's alarm has run", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"), { ttlSeconds: 60 });
    await expireHold(businessId, service.id, placed.id);
    expect(await json(await getHold(apiKey, placed.id))).toMatchObject({
      id: placed.id,
      status: "EXPIRED",
      bookingId: null,
    });
  });
});

describe("error", () => {
  it("an unknown id is 404, an id longer than 64 characters 422", async () => {
    const { apiKey } = await createAccount();
    await problem(await getHold(apiKey, "hld_unknown"), 404, "not_found");
    await validationError(await getHold(apiKey, `hld_${"x".repeat(61)}`), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    await expectUnauthorized(await api("GET", `/holds/${placed.id}`), false);
  });

  it("a revoked key gets a 401 and not the hold", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    const res = await getHold(await revokedKey(businessId), placed.id);
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain(service.id);
  });

  it("another business gets the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey);
    const placed = await hold(owner.apiKey, service.id, at(3, "10:00"));
    const unknownId = unknownIdLike(placed.id);
    await expectNotFoundLikeUnknown(
      await getHold(other.apiKey, placed.id),
      placed.id,
      await getHold(other.apiKey, unknownId),
      unknownId,
      ["Owner Clinic", service.id, owner.businessId],
    );
  });
});
