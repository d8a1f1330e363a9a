/** POST /manage/{token}/reschedule: the customer moves their booking, inside the business's policy. */
import { describe, expect, it } from "vitest";
import { api, json, problem, validationError } from "../../support/api";
import { at, plus } from "../../support/bookings";
import { salon } from "../../support/fixtures";
import { bookWithLink, clinic, minutesFromNow, viaLink } from "../../support/manage-links";

describe("happy", () => {
  it("moves the booking under the service's rules; the link stays the same", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const startTime = minutesFromNow(900);
    const res = await viaLink("POST", `${path}/reschedule`, { startTime, endTime: plus(startTime, 30) });
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view).toMatchObject({ id: booking.id, status: "CONFIRMED", startTime, manageUrl: booking.manageUrl });
    const stored = await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }));
    expect(stored).toMatchObject({ startTime, manageUrl: booking.manageUrl });
  });
});

describe("when the booking's person left the service", () => {
  /** A salon booking with its first stylist, who then stops performing the service. */
  async function leftBehind(providerIds: (all: string[]) => string[]) {
    const s = await salon(2);
    const [first, second] = s.providerIds as [string, string];
    const { booking, path } = await bookWithLink(s.apiKey, s.cut, at(2, "10:00"), { providerId: first });
    await bookWithLink(s.apiKey, s.cut, at(2, "11:00"), { providerId: second });
    const patched = await api("PATCH", `/services/${s.cut}`, {
      key: s.apiKey,
      body: { providerIds: providerIds(s.providerIds) },
    });
    expect(patched.status).toBe(200);
    return { s, second, booking, path };
  }
  const stored = async (key: string, id: string) => json(await api("GET", `/bookings/${id}`, { key }));

  it("moves the booking to one of the service's current people who is free, and names them", async () => {
    const { s, second, booking, path } = await leftBehind(([, other]) => [other as string]);
    const startTime = at(2, "12:00");
    const res = await viaLink("POST", `${path}/reschedule`, { startTime, endTime: plus(startTime, 30) });
    expect(res.status).toBe(200);
    const view = await json(res);
    expect(view).toMatchObject({ startTime: new Date(startTime).toISOString(), providerNames: ["Stylist 1"] });
    expect(await stored(s.apiKey, booking.id)).toMatchObject({ providerId: second, providerIds: [second] });
    expect((await json(await viaLink("GET", path))).providerNames).toEqual(["Stylist 1"]);
  });

  it("refuses clearly when none of them is free then: 409 slot_unavailable naming nobody; nothing moves", async () => {
    const { s, booking, path } = await leftBehind(([, other]) => [other as string]);
    const startTime = at(2, "11:00");
    const body = await problem(
      await viaLink("POST", `${path}/reschedule`, { startTime, endTime: plus(startTime, 30) }),
      409,
      "slot_unavailable",
    );
    expect(body).toMatchObject({ reason: "fully_booked", detail: "This slot (or session) is fully booked." });
    expect(body.errors).toBeUndefined();
    const { instance: _echoedPath, ...rest } = body;
    expect(JSON.stringify(rest)).not.toMatch(/prv_|svc_|providerId/);
    expect(await stored(s.apiKey, booking.id)).toMatchObject({
      startTime: booking.startTime,
      providerId: booking.providerId,
    });
  });

  it("moves it with nobody once nobody performs the service", async () => {
    const { s, booking, path } = await leftBehind(() => []);
    const startTime = at(2, "12:00");
    const res = await viaLink("POST", `${path}/reschedule`, { startTime, endTime: plus(startTime, 30) });
    expect(res.status).toBe(200);
    expect((await json(res)).providerNames).toEqual([]);
    expect(await stored(s.apiKey, booking.id)).toMatchObject({ providerId: null, providerIds: [] });
  });

  it("the business's own move still asks it for a providerId (422), as documented", async () => {
    const { s, booking } = await leftBehind(([, other]) => [other as string]);
    const startTime = at(2, "12:00");
    const res = await api("POST", `/bookings/${booking.id}/reschedule`, {
      key: s.apiKey,
      body: { startTime, endTime: plus(startTime, 30) },
    });
    await validationError(res, "providerId");
  });
});

describe("error", () => {
  it("inside the reschedule notice: 409 policy_window saying until when, and the booking stays", async () => {
    const c = await clinic({ rescheduleNoticeMinutes: 120 });
    const target = minutesFromNow(2000);
    const early = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(125));
    const moved = await viaLink("POST", `${early.path}/reschedule`, { startTime: target, endTime: plus(target, 30) });
    expect(moved.status).toBe(200);

    const late = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(115));
    const other = minutesFromNow(2100);
    const res = await viaLink("POST", `${late.path}/reschedule`, { startTime: other, endTime: plus(other, 30) });
    const body = await problem(res, 409, "policy_window");
    expect(body.until).toBe(new Date(Date.parse(late.booking.startTime) - 120 * 60_000).toISOString());
    expect((await json(await viaLink("GET", late.path))).startTime).toBe(late.booking.startTime);
    // The business is not bound by its own policy.
    const byKey = await api("POST", `/bookings/${late.booking.id}/reschedule`, {
      key: c.apiKey,
      body: { startTime: other, endTime: plus(other, 30) },
    });
    expect(byKey.status).toBe(200);
  });

  it("inside the cancellation notice a move is refused too (409 policy_window until then), so a link cannot move and then cancel", async () => {
    const c = await clinic({ cancellationNoticeMinutes: 1440, rescheduleNoticeMinutes: 0 });
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(240));
    const until = new Date(Date.parse(booking.startTime) - 1440 * 60_000).toISOString();
    expect((await problem(await viaLink("POST", `${path}/cancel`, {}), 409, "policy_window")).until).toBe(until);
    const later = minutesFromNow(10 * 1440);
    const refused = await problem(
      await viaLink("POST", `${path}/reschedule`, { startTime: later, endTime: plus(later, 30) }),
      409,
      "policy_window",
    );
    expect(refused.until).toBe(until);
    expect(refused.detail).toContain(until);
    const view = await json(await viaLink("GET", path));
    expect(view).toMatchObject({ startTime: booking.startTime, cancellableUntil: until, reschedulableUntil: until });
    expect((await problem(await viaLink("POST", `${path}/cancel`, {}), 409, "policy_window")).until).toBe(until);
    // Outside both notices the link moves it; the business is never bound.
    const early = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(1500));
    const free = minutesFromNow(3000);
    expect(
      (await viaLink("POST", `${early.path}/reschedule`, { startTime: free, endTime: plus(free, 30) })).status,
    ).toBe(200);
    const byKey = await api("POST", `/bookings/${booking.id}/reschedule`, {
      key: c.apiKey,
      body: { startTime: later, endTime: plus(later, 30) },
    });
    expect(byKey.status).toBe(200);
  });

  it("a taken time is 409 slot_unavailable; times off the rules are 422; nothing moves", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const taken = (await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(900))).booking.startTime;
    const body = await problem(
      await viaLink("POST", `${path}/reschedule`, { startTime: taken, endTime: plus(taken, 30) }),
      409,
      "slot_unavailable",
    );
    expect(body.reason).toBe("fully_booked");
    const free = minutesFromNow(1200);
    await validationError(
      await viaLink("POST", `${path}/reschedule`, { startTime: free, endTime: plus(free, 45) }),
      "endTime",
    );
    await validationError(await viaLink("POST", `${path}/reschedule`, { startTime: free }), "endTime");
    await validationError(
      await viaLink("POST", `${path}/reschedule`, { startTime: free, endTime: plus(free, 30), providerId: "prv_x" }),
      "providerId",
    );
    expect((await json(await viaLink("GET", path))).startTime).toBe(booking.startTime);
  });
});

describe("security", () => {
  it("an altered token moves nothing", async () => {
    const c = await clinic();
    const { booking, path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(600));
    const free = minutesFromNow(1500);
    const altered = `${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`;
    await problem(
      await viaLink("POST", `${altered}/reschedule`, { startTime: free, endTime: plus(free, 30) }),
      404,
      "not_found",
    );
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: c.apiKey }))).startTime).toBe(
      booking.startTime,
    );
  });
});
