/** GET /appointments/{id}: the visit with its segments in order, each as it stands now. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem } from "../../support/api";
import { at } from "../../support/bookings";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";
import { bookVisit, spa, visitBody } from "../../support/visits";

async function setup() {
  const s = await spa();
  const visit = await bookVisit(s.apiKey, visitBody(at(2, "10:00"), [{ serviceId: s.cut }, { serviceId: s.massage }]));
  return { ...s, visit };
}

const get = (key: string | undefined, id: string) => api("GET", `/appointments/${id}`, { key });

describe("happy", () => {
  it("200 with the visit as it was created", async () => {
    const s = await setup();
    const res = await get(s.apiKey, s.visit.id);
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(s.visit);
  });

  it("a segment cancelled on its own shows in the visit, which stays CONFIRMED while another is", async () => {
    const s = await setup();
    const [, massage] = s.visit.bookings;
    expect((await api("POST", `/bookings/${massage.id}/cancel`, { key: s.apiKey })).status).toBe(200);
    const visit = await json(await get(s.apiKey, s.visit.id));
    expect(visit.status).toBe("CONFIRMED");
    expect(visit.bookings.map((b: { status: string }) => b.status)).toEqual(["CONFIRMED", "CANCELLED"]);
  });
});

describe("error", () => {
  it("404 for an id that names no visit", async () => {
    const s = await setup();
    await problem(await get(s.apiKey, unknownIdLike(s.visit.id)), 404, "not_found");
  });
});

describe("security", () => {
  it("401 without a key and with a revoked one", async () => {
    const s = await setup();
    await expectUnauthorized(await get(undefined, s.visit.id), false);
    await expectUnauthorized(await get(await revokedKey(s.businessId), s.visit.id), true);
  });

  it("another business gets the same 404 as for an unknown id", async () => {
    const s = await setup();
    const other = await createAccount("Other");
    const unknown = unknownIdLike(s.visit.id);
    await expectNotFoundLikeUnknown(
      await get(other.apiKey, s.visit.id),
      s.visit.id,
      await get(other.apiKey, unknown),
      unknown,
      [s.visit.bookings[0].customerEmail, s.visit.bookings[0].id],
    );
  });
});
