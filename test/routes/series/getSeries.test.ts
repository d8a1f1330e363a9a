/** GET /series/{id}: the series with its occurrences by start, each as it stands now. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem } from "../../support/api";
import { at } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";
import { bookSeries, clinic, seriesBody } from "../../support/series";

async function setup() {
  const c = await clinic();
  const series = await bookSeries(c.apiKey, seriesBody(c.open, at(2, "10:00"), "FREQ=DAILY;COUNT=3"));
  return { ...c, series };
}

const get = (key: string | undefined, id: string) => api("GET", `/series/${id}`, { key });

describe("happy", () => {
  it("200 with the series as booked; an occurrence cancelled on its own shows as such", async () => {
    const s = await setup();
    expect(await json(await get(s.apiKey, s.series.id))).toEqual(s.series);
    await api("POST", `/bookings/${s.series.bookings[1].id}/cancel`, { key: s.apiKey });
    const after = await json(await get(s.apiKey, s.series.id));
    expect(after.bookings.map((b: { status: string }) => b.status)).toEqual(["CONFIRMED", "CANCELLED", "CONFIRMED"]);
  });
});

describe("error", () => {
  it("404 for an id that names no series; 422 for an id too long", async () => {
    const s = await setup();
    await problem(await get(s.apiKey, unknownIdLike(s.series.id)), 404, "not_found");
    await problem(await get(s.apiKey, "x".repeat(65)), 422, "validation_failed");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one", async () => {
    const s = await setup();
    await expectUnauthorized(await get(undefined, s.series.id), false);
    await expectUnauthorized(await get(await revokedKey(s.businessId), s.series.id), true);
  });

  it("another business gets the 404 of an unknown id", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const unknown = unknownIdLike(s.series.id);
    await expectNotFoundLikeUnknown(
      await get(other.apiKey, s.series.id),
      s.series.id,
      await get(other.apiKey, unknown),
      unknown,
      [s.series.bookings[0].customerEmail],
    );
  });
});
