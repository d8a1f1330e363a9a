/** GET /manage/{token}/availability: the times a customer could move their booking to. */
import { describe, expect, it } from "vitest";
import { api, json, problem, validationError } from "../../support/api";
import { at as atTime } from "../../support/bookings";
import { salon } from "../../support/fixtures";
import { documentedPattern, expectWritableInstants, LAST_INSTANT } from "../../support/instants";
import { bookWithLink, clinic, minutesFromNow, viaLink } from "../../support/manage-links";

/** An instant as the API answers it (milliseconds and Z). */
const at = (days: number, hhmm: string) => new Date(atTime(days, hhmm)).toISOString();

describe("happy", () => {
  it("lists the booking's provider's slots with times and bookable only", async () => {
    const s = await salon(2);
    const [first, second] = s.providerIds as [string, string];
    const { path } = await bookWithLink(s.apiKey, s.cut, at(2, "10:00"), { providerId: first });
    // The other stylist's booking does not make the first one's slot taken.
    await bookWithLink(s.apiKey, s.cut, at(2, "11:00"), { providerId: second });
    const res = await viaLink("GET", `${path}/availability?from=${at(2, "09:00")}&to=${at(2, "12:00")}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ timezone: "UTC", from: at(2, "09:00"), to: at(2, "12:00") });
    expect(body.slots.map((slot: { startTime: string; bookable: boolean }) => [slot.startTime, slot.bookable])).toEqual(
      [
        [at(2, "09:00"), true],
        [at(2, "09:30"), true],
        [at(2, "10:00"), false],
        [at(2, "10:30"), true],
        [at(2, "11:00"), true],
        [at(2, "11:30"), true],
      ],
    );
    expect(Object.keys(body.slots[0]).sort()).toEqual(["bookable", "endTime", "startTime"]);
    expect(JSON.stringify(body)).not.toMatch(/prv_|svc_|bkg_/);
  });

  it("a range reaching past year 9999 is cut at its last instant: every time matches the document's pattern", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(120));
    const res = await viaLink("GET", `${path}/availability?from=9999-12-31T23:00:00Z`);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toMatchObject({ from: "9999-12-31T23:00:00.000Z", to: LAST_INSTANT });
    // One slot a minute, 30 minutes long: the last one listed ends at 23:59, none in year 10000.
    expect(body.slots).toHaveLength(30);
    expect(body.slots.at(-1)).toMatchObject({
      startTime: "9999-12-31T23:29:00.000Z",
      endTime: "9999-12-31T23:59:00.000Z",
    });
    expectWritableInstants(body, await documentedPattern("ManagedAvailability", "to"));
  });
});

describe("when the booking's person left the service", () => {
  /** A salon booking with its first stylist, who then stops performing the service: the link's path. */
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
    return { s, booking, path };
  }
  const slotsOf = (body: { slots: { startTime: string; bookable: boolean }[] }) =>
    body.slots.map((slot) => [slot.startTime, slot.bookable]);

  it("lists the slots of the service's current people, not a 422 on a providerId the customer never sent", async () => {
    const { path } = await leftBehind(([, second]) => [second as string]);
    const res = await viaLink("GET", `${path}/availability?from=${at(2, "09:00")}&to=${at(2, "12:00")}`);
    expect(res.status).toBe(200);
    const body = await json(res);
    // The second stylist's: free at 10:00 (the booking's own time), busy at 11:00.
    expect(slotsOf(body)).toEqual([
      [at(2, "09:00"), true],
      [at(2, "09:30"), true],
      [at(2, "10:00"), true],
      [at(2, "10:30"), true],
      [at(2, "11:00"), false],
      [at(2, "11:30"), true],
    ]);
    expect(JSON.stringify(body)).not.toMatch(/prv_|svc_|bkg_/);
  });

  it("lists the service's own slots once nobody performs it any more", async () => {
    const { path } = await leftBehind(() => []);
    const res = await viaLink("GET", `${path}/availability?from=${at(2, "09:00")}&to=${at(2, "10:30")}`);
    expect(res.status).toBe(200);
    expect((await json(res)).slots.length).toBe(3);
  });
});

describe("error", () => {
  it("a from at the last instant leaves no range: a 422 on from", async () => {
    const c = await clinic();
    const { path } = await bookWithLink(c.apiKey, c.serviceId, minutesFromNow(120));
    await validationError(await viaLink("GET", `${path}/availability?from=${LAST_INSTANT}`), "from");
  });

  it("a range over 31 days or backwards is a 422 on to; an unknown parameter a 422", async () => {
    const s = await salon(1);
    const { path } = await bookWithLink(s.apiKey, s.cut, at(2, "10:00"));
    await validationError(
      await viaLink("GET", `${path}/availability?from=${at(2, "09:00")}&to=${at(40, "09:00")}`),
      "to",
    );
    await validationError(
      await viaLink("GET", `${path}/availability?from=${at(2, "09:00")}&to=${at(1, "09:00")}`),
      "to",
    );
    await validationError(await viaLink("GET", `${path}/availability?providerId=x`), "providerId");
  });
});

describe("security", () => {
  it("a wrong token is a 404 before any slot is counted", async () => {
    const s = await salon(1);
    const { path } = await bookWithLink(s.apiKey, s.cut, at(2, "10:00"));
    await problem(await viaLink("GET", `${path.slice(0, -2)}xx/availability`), 404, "not_found");
  });
});
