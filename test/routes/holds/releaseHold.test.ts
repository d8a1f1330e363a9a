/** DELETE /holds/{id}: frees the seat (and the provider's time) at once; a hold that ended stays as it is. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, bookingBody, freshEmail, postBooking, slotAt } from "../../support/bookings";
import { expireHold, hold, salon } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const release = (key: string, id: string) => api("DELETE", `/holds/${id}`, { key });

describe("happy", () => {
  it("204 without a body; the seat is free at once and the hold can no longer be booked", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    const res = await release(apiKey, placed.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 0, remaining: 1 });
    const late = await postBooking(apiKey, { holdId: placed.id, customerName: "Ada", customerEmail: freshEmail() });
    await problem(late, 409, "hold_expired");
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "10:00")))).status).toBe(201);
  });

  it("frees the provider's time for every service at once", async () => {
    const s = await salon(1);
    const [provider] = s.providerIds as [string];
    const placed = await hold(s.apiKey, s.cut, at(3, "10:00"));
    expect((await postBooking(s.apiKey, bookingBody(s.colour, at(3, "10:00"), { providerId: provider }))).status).toBe(
      409,
    );
    expect((await release(s.apiKey, placed.id)).status).toBe(204);
    expect((await postBooking(s.apiKey, bookingBody(s.colour, at(3, "10:00"), { providerId: provider }))).status).toBe(
      201,
    );
  });

  it("releasing again answers 204 and changes nothing", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    expect((await release(apiKey, placed.id)).status).toBe(204);
    expect((await release(apiKey, placed.id)).status).toBe(204);
    expect((await json(await api("GET", `/holds/${placed.id}`, { key: apiKey }))).status).toBe("RELEASED");
  });

  it("releasing a booked hold answers 204 and leaves the booking its seat", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    const booking = await json(
      await postBooking(apiKey, { holdId: placed.id, customerName: "Ada", customerEmail: freshEmail() }),
    );
    expect((await release(apiKey, placed.id)).status).toBe(204);
    expect(await json(await api("GET", `/holds/${placed.id}`, { key: apiKey }))).toMatchObject({
      status: "CONSUMED",
      bookingId: booking.id,
    });
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: apiKey }))).status).toBe("CONFIRMED");
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ booked: 1, remaining: 0 });
  });

  it("releasing an expired hold answers 204 and it stays EXPIRED", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"), { ttlSeconds: 60 });
    await expireHold(businessId, service.id, placed.id);
    expect((await release(apiKey, placed.id)).status).toBe(204);
    expect((await json(await api("GET", `/holds/${placed.id}`, { key: apiKey }))).status).toBe("EXPIRED");
  });
});

describe("error", () => {
  it("an unknown id is 404, an id longer than 64 characters 422", async () => {
    const { apiKey } = await createAccount();
    await problem(await release(apiKey, "hld_unknown"), 404, "not_found");
    await validationError(await release(apiKey, `hld_${"x".repeat(61)}`), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge; the seat stays held", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    await expectUnauthorized(await api("DELETE", `/holds/${placed.id}`), false);
    expect(await slotAt(apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 1 });
  });

  it("a revoked key: 401; the seat stays held", async () => {
    const { apiKey, businessId } = await createAccount();
    const service = await createService(apiKey);
    const placed = await hold(apiKey, service.id, at(3, "10:00"));
    await expectUnauthorized(await release(await revokedKey(businessId), placed.id), true);
    expect((await json(await api("GET", `/holds/${placed.id}`, { key: apiKey }))).status).toBe("HELD");
  });

  it("another business gets the 404 of an unknown id; the hold keeps its seat", async () => {
    const owner = await createAccount("Owner Clinic");
    const other = await createAccount("Other");
    const service = await createService(owner.apiKey);
    const placed = await hold(owner.apiKey, service.id, at(3, "10:00"));
    const unknownId = unknownIdLike(placed.id);
    await expectNotFoundLikeUnknown(
      await release(other.apiKey, placed.id),
      placed.id,
      await release(other.apiKey, unknownId),
      unknownId,
      ["Owner Clinic", service.id, owner.businessId],
    );
    expect((await json(await api("GET", `/holds/${placed.id}`, { key: owner.apiKey }))).status).toBe("HELD");
    expect(await slotAt(owner.apiKey, service.id, at(3, "10:00"))).toMatchObject({ held: 1 });
  });
});
