/** POST /series: one service on every occurrence of a rule, all or none (reject) or the free ones (skip). */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem, utc, validationError } from "../../support/api";
import { at, book, bookingBody, d1Bookings, statusCounts } from "../../support/bookings";
import { expectUnauthorized, revokedKey } from "../../support/security";
import { clinic, postSeries, seriesBody, weeksAfter } from "../../support/series";

describe("happy", () => {
  it("201: four weekly occurrences at the same time, each a booking with seriesId, in D1 and the calendar", async () => {
    const c = await clinic();
    const start = at(2, "10:00");
    const res = await postSeries(
      c.apiKey,
      seriesBody(c.physio, start, "FREQ=WEEKLY;COUNT=4", { providerId: c.therapist }),
    );
    expect(res.status).toBe(201);
    const series = await json(res);
    expect(series.id).toMatch(/^ser_/);
    expect(res.headers.get("Location")).toBe(`/api/v1/series/${series.id}`);
    expect(series).toMatchObject({ serviceId: c.physio, recurrence: "FREQ=WEEKLY;COUNT=4", skipped: [] });
    expect(series.bookings.map((b: { startTime: string }) => b.startTime)).toEqual(
      [0, 1, 2, 3].map((w) => utc(weeksAfter(start, w))),
    );
    for (const b of series.bookings)
      expect(b).toMatchObject({ seriesId: series.id, appointmentId: null, providerId: c.therapist });
    expect((await d1Bookings(c.businessId)).map((b) => b.seriesId)).toEqual(Array(4).fill(series.id));
    expect(await json(await api("GET", `/series/${series.id}`, { key: c.apiKey }))).toEqual(series);
    // Each occurrence holds its slot: a single booking in week 3 is refused.
    await problem(
      await api("POST", "/bookings", { key: c.apiKey, body: bookingBody(c.physio, weeksAfter(start, 2)) }),
      409,
      "slot_unavailable",
    );
  });

  it("keeps 10:00 in the service's time zone across a DST change (Berlin, UTC+1 → UTC+2)", async () => {
    const { apiKey } = await createAccount("Berlin");
    const service = await createService(apiKey, { name: "Berlin", timezone: "Europe/Berlin" });
    // The last Sunday of March: the change falls between the second and third occurrence.
    const now = new Date();
    const year = now.getUTCMonth() >= 2 ? now.getUTCFullYear() + 1 : now.getUTCFullYear();
    const march31 = new Date(Date.UTC(year, 2, 31));
    const change = new Date(Date.UTC(year, 2, 31 - march31.getUTCDay()));
    const first = new Date(change.getTime() - 12 * 86_400_000 + 9 * 3_600_000); // a Monday-ish, 10:00 CET
    const start = `${first.toISOString().slice(0, 19)}Z`;
    const series = await json(await postSeries(apiKey, seriesBody(service.id, start, "FREQ=WEEKLY;COUNT=3")));
    expect(series.bookings.map((b: { startTime: string }) => b.startTime.slice(11, 16))).toEqual([
      "09:00",
      "09:00",
      "08:00",
    ]);
  });

  it("skip books the free occurrences and lists the others with their reason", async () => {
    const c = await clinic();
    const start = at(2, "11:00");
    for (const week of [1, 3]) await book(c.apiKey, bookingBody(c.open, weeksAfter(start, week)));
    const res = await postSeries(c.apiKey, seriesBody(c.open, start, "FREQ=WEEKLY;COUNT=4", { onConflict: "skip" }));
    expect(res.status).toBe(201);
    const series = await json(res);
    expect(series.bookings.map((b: { startTime: string }) => b.startTime)).toEqual(
      [0, 2].map((w) => utc(weeksAfter(start, w))),
    );
    expect(series.skipped).toEqual(
      [1, 3].map((w) => ({
        startTime: utc(weeksAfter(start, w)),
        endTime: utc(weeksAfter(start, w).replace(":00:00Z", ":30:00Z")),
        reason: "fully_booked",
      })),
    );
    const again = await json(await api("GET", `/series/${series.id}`, { key: c.apiKey }));
    expect(again.skipped).toEqual(series.skipped);
  });

  it("the same Idempotency-Key replays the series and books nothing more", async () => {
    const c = await clinic();
    const body = seriesBody(c.open, at(3, "09:00"), "FREQ=DAILY;COUNT=3");
    const first = await postSeries(c.apiKey, body, "series-once");
    const again = await postSeries(c.apiKey, body, "series-once");
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await json(again)).toEqual(await json(first));
    expect(await d1Bookings(c.businessId)).toHaveLength(3);
  });
});

describe("error", () => {
  it("reject: 409 listing every conflicting occurrence (not just the first two); nothing is booked", async () => {
    const c = await clinic();
    const start = at(2, "12:00");
    for (const week of [1, 3, 4]) await book(c.apiKey, bookingBody(c.open, weeksAfter(start, week)));
    const before = await d1Bookings(c.businessId);
    const res = await postSeries(c.apiKey, seriesBody(c.open, start, "FREQ=WEEKLY;COUNT=6"));
    const body = await problem(res, 409, "slot_unavailable");
    expect(body.conflicts).toEqual(
      [1, 3, 4].map((w) => ({ startTime: utc(weeksAfter(start, w)), reason: "fully_booked" })),
    );
    expect(await d1Bookings(c.businessId)).toEqual(before);
    expect(
      await problem(await api("GET", "/series/ser_00000000000000000000000000", { key: c.apiKey }), 404, "not_found"),
    ).toBeTruthy();
  });

  it("occurrences past the service's horizon are conflicts with their reason", async () => {
    const c = await clinic();
    const near = await createService(c.apiKey, { name: "Near", maxAdvanceDays: 10 });
    // Days 2 and 9 are within 10 days; days 16 and 23 are not.
    const res = await postSeries(c.apiKey, seriesBody(near.id, at(2, "09:00"), "FREQ=WEEKLY;COUNT=4"));
    const body = await problem(res, 409, "slot_unavailable");
    expect(body.conflicts.map((x: { reason: string }) => x.reason)).toEqual(["too_far_ahead", "too_far_ahead"]);
  });

  it.each([
    ["FREQ=YEARLY;COUNT=2", "recurrence"],
    ["FREQ=WEEKLY;COUNT=53", "recurrence"],
    ["FREQ=DAILY;UNTIL=20991231T000000Z", "recurrence"],
    ["FREQ=WEEKLY;BYDAY=MO;COUNT=3", "recurrence"],
  ])("422 at recurrence for %s; nothing booked", async (recurrence, path) => {
    const c = await clinic();
    await validationError(await postSeries(c.apiKey, seriesBody(c.open, at(2, "09:00"), recurrence)), path);
    expect(await d1Bookings(c.businessId)).toEqual([]);
  });

  it("422 for the wrong duration, an unknown onConflict, an unknown field; 422 service_not_found", async () => {
    const c = await clinic();
    const body = seriesBody(c.open, at(2, "09:00"), "FREQ=DAILY;COUNT=2");
    await validationError(await postSeries(c.apiKey, { ...body, endTime: at(2, "10:00") }), "endTime");
    await validationError(await postSeries(c.apiKey, { ...body, onConflict: "maybe" }), "onConflict");
    await validationError(await postSeries(c.apiKey, { ...body, colour: "red" }), "colour");
    await problem(await postSeries(c.apiKey, { ...body, serviceId: "svc_nope" }), 422, "service_not_found");
    expect(await d1Bookings(c.businessId)).toEqual([]);
  });
});

describe("storms", () => {
  it("a reject series racing single creates on its 4th occurrence: either the series or the single booking, never both", async () => {
    for (let round = 0; round < 3; round++) {
      const c = await clinic();
      const start = at(2 + round, "14:00");
      const fourth = weeksAfter(start, 3);
      const answers = await Promise.all([
        postSeries(c.apiKey, seriesBody(c.open, start, "FREQ=WEEKLY;COUNT=6")),
        ...Array.from({ length: 5 }, () =>
          api("POST", "/bookings", { key: c.apiKey, body: bookingBody(c.open, fourth) }),
        ),
      ]);
      const [series, ...singles] = answers as [Response, ...Response[]];
      const singlesWon = statusCounts(singles)[201] ?? 0;
      const rows = await d1Bookings(c.businessId);
      if (series.status === 201) {
        expect(singlesWon).toBe(0);
        expect(rows).toHaveLength(6);
      } else {
        expect(series.status).toBe(409);
        expect(singlesWon).toBe(1);
        expect(rows).toHaveLength(1);
      }
    }
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one; nothing is booked", async () => {
    const c = await clinic();
    const body = seriesBody(c.open, at(2, "09:00"), "FREQ=DAILY;COUNT=2");
    await expectUnauthorized(await api("POST", "/series", { body }), false);
    await expectUnauthorized(await postSeries(await revokedKey(c.businessId), body), true);
    expect(await d1Bookings(c.businessId)).toEqual([]);
  });

  it("another business's service is not found, like an unknown one", async () => {
    const c = await clinic();
    const other = await createAccount("Other");
    const theirs = await createService(other.apiKey, { name: "Theirs" });
    const res = await postSeries(c.apiKey, seriesBody(theirs.id, at(2, "09:00"), "FREQ=DAILY;COUNT=2"));
    expect((await problem(res, 422, "service_not_found")).detail).toBe(`No service ${theirs.id}.`);
    expect(await d1Bookings(other.businessId)).toEqual([]);
  });
});
