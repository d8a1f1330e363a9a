/** POST /series/{id}/cancel: the occurrences from an instant on are cancelled; earlier ones stay. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { at, bookingBody, d1Bookings, postBooking } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";
import { bookSeries, clinic, seriesBody } from "../../support/series";

async function setup() {
  const c = await clinic();
  const series = await bookSeries(c.apiKey, seriesBody(c.open, at(2, "10:00"), "FREQ=DAILY;COUNT=4"));
  return { ...c, series };
}

const cancel = (key: string | undefined, id: string, body?: unknown) =>
  api("POST", `/series/${id}/cancel`, { key, ...(body === undefined ? {} : { body }) });
const statuses = (s: { bookings: { status: string }[] }) => s.bookings.map((b) => b.status);

describe("happy", () => {
  it("from the third occurrence on: the last two CANCELLED, their slots free again", async () => {
    const s = await setup();
    const from = s.series.bookings[2].startTime;
    const res = await cancel(s.apiKey, s.series.id, { from, reason: "Recovered." });
    expect(res.status).toBe(200);
    const after = await json(res);
    expect(statuses(after)).toEqual(["CONFIRMED", "CONFIRMED", "CANCELLED", "CANCELLED"]);
    expect(after.bookings[3].cancellationReason).toBe("Recovered.");
    expect(await json(await api("GET", `/series/${s.series.id}`, { key: s.apiKey }))).toEqual(after);
    expect((await postBooking(s.apiKey, bookingBody(s.open, at(4, "10:00")))).status).toBe(201);
  });

  it("without a body: every occurrence from now on", async () => {
    const s = await setup();
    expect(statuses(await json(await cancel(s.apiKey, s.series.id)))).toEqual(Array(4).fill("CANCELLED"));
  });

  it("an empty body sent as JSON reads as none", async () => {
    const s = await setup();
    const res = await api("POST", `/series/${s.series.id}/cancel`, {
      key: s.apiKey,
      rawBody: "",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(statuses(await json(res))).toEqual(Array(4).fill("CANCELLED"));
  });
});

describe("error", () => {
  it("409 invalid_transition once nothing is left to cancel; nothing changes", async () => {
    const s = await setup();
    await cancel(s.apiKey, s.series.id);
    const before = await d1Bookings(s.businessId);
    await problem(await cancel(s.apiKey, s.series.id), 409, "invalid_transition");
    expect(await d1Bookings(s.businessId)).toEqual(before);
  });

  it("422 for a bad from or an unknown field; 404 for no such series", async () => {
    const s = await setup();
    await validationError(await cancel(s.apiKey, s.series.id, { from: "tomorrow" }), "from");
    await validationError(await cancel(s.apiKey, s.series.id, { until: "x" }), "until");
    await problem(await cancel(s.apiKey, unknownIdLike(s.series.id)), 404, "not_found");
    expect((await d1Bookings(s.businessId)).every((b) => b.status === "CONFIRMED")).toBe(true);
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one; nothing is cancelled", async () => {
    const s = await setup();
    await expectUnauthorized(await cancel(undefined, s.series.id), false);
    await expectUnauthorized(await cancel(await revokedKey(s.businessId), s.series.id), true);
    expect((await d1Bookings(s.businessId)).every((b) => b.status === "CONFIRMED")).toBe(true);
  });

  it("another business gets the 404 of an unknown id and cancels nothing", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const unknown = unknownIdLike(s.series.id);
    await expectNotFoundLikeUnknown(
      await cancel(other.apiKey, s.series.id),
      s.series.id,
      await cancel(other.apiKey, unknown),
      unknown,
    );
    expect((await d1Bookings(s.businessId)).every((b) => b.status === "CONFIRMED")).toBe(true);
  });
});
