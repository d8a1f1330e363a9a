/** Services name who performs them (`providerIds`) and carry date overrides that the calendar follows. */
import { describe, expect, it } from "vitest";
import { at, availability, bookingBody, dayOf, postBooking } from "../bookings/support";
import { api, createAccount, createService, json, problem, serviceBody, validationError } from "../helpers";

async function newProvider(key: string, name = "Alex") {
  const res = await api("POST", "/providers", {
    key,
    body: { name, timezone: "UTC", weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }] } },
  });
  expect(res.status).toBe(201);
  return (await json(res)).id as string;
}

describe("providerIds", () => {
  it("are stored, answered sorted on create, get and list, and default to []", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const b = await newProvider(apiKey, "B");
    const plain = await createService(apiKey);
    expect(plain.providerIds).toEqual([]);
    const service = await createService(apiKey, { providerIds: [b, a] });
    expect(service.providerIds).toEqual([a, b].sort());
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).providerIds).toEqual(
      [a, b].sort(),
    );
    const listed = await json(await api("GET", "/services", { key: apiKey }));
    const byId = Object.fromEntries(
      listed.data.map((s: { id: string; providerIds: string[] }) => [s.id, s.providerIds]),
    );
    expect(byId).toEqual({ [plain.id]: [], [service.id]: [a, b].sort() });
  });

  it("PATCH replaces the list, [] clears it, and leaving it out keeps it", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const b = await newProvider(apiKey, "B");
    const service = await createService(apiKey, { providerIds: [a] });
    const path = `/services/${service.id}`;
    expect((await json(await api("PATCH", path, { key: apiKey, body: { providerIds: [b] } }))).providerIds).toEqual([
      b,
    ]);
    expect((await json(await api("PATCH", path, { key: apiKey, body: { name: "Renamed" } }))).providerIds).toEqual([b]);
    expect((await json(await api("GET", path, { key: apiKey }))).providerIds).toEqual([b]);
    expect((await json(await api("PATCH", path, { key: apiKey, body: { providerIds: [] } }))).providerIds).toEqual([]);
    expect((await json(await api("GET", path, { key: apiKey }))).providerIds).toEqual([]);
  });

  it("a stale If-Match changes neither the service nor its providers", async () => {
    const { apiKey } = await createAccount();
    const a = await newProvider(apiKey, "A");
    const service = await createService(apiKey, { providerIds: [a] });
    const res = await api("PATCH", `/services/${service.id}`, {
      key: apiKey,
      body: { providerIds: [] },
      headers: { "If-Match": '"stale"' },
    });
    await problem(res, 412, "precondition_failed");
    expect((await json(await api("GET", `/services/${service.id}`, { key: apiKey }))).providerIds).toEqual([a]);
  });

  it("refuses an unknown, a foreign or a repeated provider id at its index, and stores nothing", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const mine = await newProvider(owner.apiKey);
    const foreign = await newProvider(other.apiKey);
    const cases: [string[], string][] = [
      [[mine, "prv_unknown"], "providerIds.1"],
      [[foreign], "providerIds.0"],
      [[mine, mine], "providerIds.1"],
    ];
    for (const [providerIds, path] of cases) {
      await validationError(
        await api("POST", "/services", { key: owner.apiKey, body: serviceBody({ providerIds }) }),
        path,
      );
    }
    await validationError(
      await api("POST", "/services", {
        key: owner.apiKey,
        body: serviceBody({ providerIds: Array.from({ length: 51 }, (_, i) => `prv_${i}`) }),
      }),
      "providerIds",
    );
    expect((await json(await api("GET", "/services", { key: owner.apiKey }))).pagination.total).toBe(0);

    const service = await createService(owner.apiKey, { providerIds: [mine] });
    const patch = await api("PATCH", `/services/${service.id}`, {
      key: owner.apiKey,
      body: { providerIds: [foreign] },
    });
    const entry = await validationError(patch, "providerIds.0");
    expect(entry.message).not.toContain(other.businessId);
    expect(await json(await api("GET", `/services/${service.id}`, { key: owner.apiKey }))).toEqual(service);
  });
});

describe("service date overrides", () => {
  it("close a day and shorten another in the slot calendar, and booking agrees", async () => {
    const { apiKey } = await createAccount();
    const closed = dayOf(3);
    const short = dayOf(4);
    const service = await createService(apiKey, {
      dateOverrides: [
        { date: closed, intervals: [] },
        { date: short, intervals: [{ start: "09:00", end: "10:00" }] },
      ],
    });
    expect(service.dateOverrides).toHaveLength(2);
    const slots = (await availability(apiKey, service.id, at(3, "00:00"), at(5, "00:00"))).slots;
    expect(slots.map((s: { startTime: string }) => Date.parse(s.startTime))).toEqual([
      Date.parse(at(4, "09:00")),
      Date.parse(at(4, "09:30")),
    ]);
    const refused = await postBooking(apiKey, bookingBody(service.id, at(3, "10:00")));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("outside_working_hours");
    const alsoRefused = await postBooking(apiKey, bookingBody(service.id, at(4, "11:00")));
    expect((await problem(alsoRefused, 409, "slot_unavailable")).reason).toBe("outside_working_hours");
    expect((await postBooking(apiKey, bookingBody(service.id, at(4, "09:30")))).status).toBe(201);
    // A day without an override keeps the weekly hours.
    expect((await postBooking(apiKey, bookingBody(service.id, at(5, "15:00")))).status).toBe(201);
  });

  it("PATCH replaces the list and the calendar follows at once", async () => {
    const { apiKey } = await createAccount();
    const service = await createService(apiKey, { dateOverrides: [{ date: dayOf(3), intervals: [] }] });
    const res = await api("PATCH", `/services/${service.id}`, { key: apiKey, body: { dateOverrides: [] } });
    expect((await json(res)).dateOverrides).toEqual([]);
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "10:00")))).status).toBe(201);
  });

  it("refuses repeated dates and bad intervals", async () => {
    const { apiKey } = await createAccount();
    const dateOverrides = [
      { date: "2026-12-24", intervals: [] },
      { date: "2026-12-24", intervals: [] },
    ];
    await validationError(
      await api("POST", "/services", { key: apiKey, body: serviceBody({ dateOverrides }) }),
      "dateOverrides.1.date",
    );
    await validationError(
      await api("POST", "/services", {
        key: apiKey,
        body: serviceBody({ dateOverrides: [{ date: "2026-12-24", intervals: [{ start: "24:00", end: "24:00" }] }] }),
      }),
      "dateOverrides.0.intervals.0.start",
    );
  });
});
