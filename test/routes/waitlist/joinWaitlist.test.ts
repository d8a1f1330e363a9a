/** POST /waitlist: queue for a full slot; the first in line is offered a hold when a seat frees. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, validationError } from "../../support/api";
import { at, d1Bookings, slotAt } from "../../support/bookings";
import { expectUnauthorized, revokedKey } from "../../support/security";
import { entry, expireHoldsNow, fullSlot, join, joinBody } from "../../support/waitlist";

describe("happy", () => {
  it("201 WAITING with its position; a cancel offers the first entry a hold, the next moves up", async () => {
    const s = await fullSlot();
    const res = await api("POST", "/waitlist", { key: s.apiKey, body: joinBody(s) });
    expect(res.status).toBe(201);
    const first = await json(res);
    expect(res.headers.get("Location")).toBe(`/api/v1/waitlist/${first.id}`);
    expect(first).toMatchObject({ status: "WAITING", position: 1, holdId: null, serviceId: s.serviceId });
    const second = await join(s.apiKey, joinBody(s));
    expect(second.position).toBe(2);
    expect((await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    const offered = await entry(s.apiKey, first.id);
    expect(offered).toMatchObject({ status: "OFFERED", position: null });
    expect(offered.holdId).toMatch(/^hld_/);
    expect(await json(await api("GET", `/holds/${offered.holdId}`, { key: s.apiKey }))).toMatchObject({
      status: "HELD",
    });
    expect(await entry(s.apiKey, second.id)).toMatchObject({ status: "WAITING", position: 1 });
    // The seat is kept for the offer: the slot stays full.
    expect(await slotAt(s.apiKey, s.serviceId, s.start)).toMatchObject({ bookable: false, held: 1 });
    // Booking the offer makes the entry BOOKED.
    const booked = await json(
      await api("POST", "/bookings", {
        key: s.apiKey,
        body: { holdId: offered.holdId, customerName: "Rosa Parks", customerEmail: "rosa@example.com" },
      }),
    );
    expect(await entry(s.apiKey, first.id)).toMatchObject({ status: "BOOKED", bookingId: booked.id });
  });

  it("an offer not booked in time expires on the alarm alone and passes to the next entry", async () => {
    const s = await fullSlot();
    const first = await join(s.apiKey, joinBody(s));
    const second = await join(s.apiKey, joinBody(s));
    await api("POST", `/bookings/${s.bookings[0]?.id}/cancel`, { key: s.apiKey });
    expect((await entry(s.apiKey, first.id)).status).toBe("OFFERED");
    await expireHoldsNow(s.businessId, s.serviceId);
    expect(await entry(s.apiKey, first.id)).toMatchObject({ status: "EXPIRED" });
    const next = await entry(s.apiKey, second.id);
    expect(next.status).toBe("OFFERED");
    expect(next.holdId).not.toBe((await entry(s.apiKey, first.id)).holdId);
  });
});

describe("error", () => {
  it("409 slot_available for a slot with a free seat; nothing queued", async () => {
    const s = await fullSlot();
    const res = await api("POST", "/waitlist", {
      key: s.apiKey,
      body: joinBody(s, { startTime: at(2, "11:00"), endTime: at(2, "11:30") }),
    });
    await problem(res, 409, "slot_available");
    expect((await json(await api("GET", `/waitlist?serviceId=${s.serviceId}`, { key: s.apiKey }))).data).toEqual([]);
  });

  it("422 for the wrong duration, a past slot, an unknown field; 409 outside_working_hours; 422 service_not_found", async () => {
    const s = await fullSlot();
    await validationError(
      await api("POST", "/waitlist", { key: s.apiKey, body: joinBody(s, { endTime: at(2, "11:00") }) }),
      "endTime",
    );
    await validationError(
      await api("POST", "/waitlist", {
        key: s.apiKey,
        body: joinBody(s, { startTime: at(-1, "10:00"), endTime: at(-1, "10:30") }),
      }),
      "startTime",
    );
    await validationError(
      await api("POST", "/waitlist", { key: s.apiKey, body: { ...joinBody(s), colour: "red" } }),
      "colour",
    );
    const night = await api("POST", "/waitlist", {
      key: s.apiKey,
      body: joinBody(s, { startTime: at(2, "20:00"), endTime: at(2, "20:30") }),
    });
    expect(await problem(night, 409, "slot_unavailable")).toMatchObject({ reason: "outside_working_hours" });
    await problem(
      await api("POST", "/waitlist", { key: s.apiKey, body: joinBody(s, { serviceId: "svc_nope" }) }),
      422,
      "service_not_found",
    );
    expect((await json(await api("GET", `/waitlist?serviceId=${s.serviceId}`, { key: s.apiKey }))).data).toEqual([]);
  });

  it("409 waitlist_full past 50 entries in one slot", async () => {
    const s = await fullSlot();
    for (let i = 0; i < 50; i++) await join(s.apiKey, joinBody(s));
    await problem(await api("POST", "/waitlist", { key: s.apiKey, body: joinBody(s) }), 409, "waitlist_full");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one; nothing queued", async () => {
    const s = await fullSlot();
    await expectUnauthorized(await api("POST", "/waitlist", { body: joinBody(s) }), false);
    await expectUnauthorized(
      await api("POST", "/waitlist", { key: await revokedKey(s.businessId), body: joinBody(s) }),
      true,
    );
    expect((await json(await api("GET", `/waitlist?serviceId=${s.serviceId}`, { key: s.apiKey }))).data).toEqual([]);
  });

  it("another business's service is not found", async () => {
    const s = await fullSlot();
    const other = await createAccount("Other");
    await createService(other.apiKey);
    const res = await api("POST", "/waitlist", { key: other.apiKey, body: joinBody(s) });
    expect((await problem(res, 422, "service_not_found")).detail).toBe(`No service ${s.serviceId}.`);
    expect(await d1Bookings(other.businessId)).toEqual([]);
  });
});
