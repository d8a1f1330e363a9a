/** GET /providers/{id}/bookings: one person's bookings across services, filtered like GET /bookings. */
import { describe, expect, it } from "vitest";
import {
  api,
  createAccount,
  createCustomer,
  createService,
  insertBooking,
  json,
  problem,
  validationError,
} from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { createProvider, salon } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

/** Ids of the bookings the provider's list answers, in order (asserts 200 and a full page). */
async function listIds(key: string, providerId: string, query = ""): Promise<string[]> {
  const res = await api("GET", `/providers/${providerId}/bookings${query}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((b: { id: string }) => b.id);
}

describe("happy", () => {
  it("lists the person's bookings across services, newest first, filtered", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    const other = await createProvider(apiKey, { name: "Other" });
    const cut = await createService(apiKey, { name: "Cut" });
    const colour = await createService(apiKey, { name: "Colour" });
    const customer = await createCustomer(apiKey);
    const base = { customerId: customer.id, providerId: provider.id };
    const a = await insertBooking(businessId, { ...base, serviceId: cut.id, startTime: "2026-12-01T09:00:00.000Z" });
    const b = await insertBooking(businessId, { ...base, serviceId: colour.id, startTime: "2026-12-02T09:00:00.000Z" });
    const c = await insertBooking(businessId, {
      ...base,
      serviceId: cut.id,
      startTime: "2026-12-03T09:00:00.000Z",
      status: "CANCELLED",
    });
    await insertBooking(businessId, {
      ...base,
      providerId: other.id,
      serviceId: cut.id,
      startTime: "2026-12-01T10:00:00.000Z",
    });
    await insertBooking(businessId, {
      ...base,
      providerId: null,
      serviceId: cut.id,
      startTime: "2026-12-01T11:00:00.000Z",
    });

    expect(await listIds(apiKey, provider.id)).toEqual([c.id, b.id, a.id]);
    expect(await listIds(apiKey, provider.id, `?serviceId=${cut.id}`)).toEqual([c.id, a.id]);
    expect(await listIds(apiKey, provider.id, "?status=CONFIRMED")).toEqual([b.id, a.id]);
    expect(await listIds(apiKey, provider.id, "?from=2026-12-02T00:00:00Z&to=2026-12-03T00:00:00Z")).toEqual([b.id]);
    const one = await json(await api("GET", `/providers/${provider.id}/bookings?limit=1`, { key: apiKey }));
    expect(one.data[0]).toMatchObject({ id: c.id, providerId: provider.id, serviceId: cut.id });
  });

  it("bookings made through the API land in the list of the provider they were assigned to, with Link", async () => {
    const s = await salon(2);
    const [first, second] = s.providerIds as [string, string];
    const mine = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: first }));
    const theirs = await book(s.apiKey, bookingBody(s.colour, at(3, "10:00"), { providerId: second }));
    const later = await book(s.apiKey, bookingBody(s.colour, at(3, "12:00"), { providerId: first }));
    expect(await listIds(s.apiKey, first)).toEqual([later.id, mine.id]);
    expect(await listIds(s.apiKey, second)).toEqual([theirs.id]);
    const res = await api("GET", `/providers/${first}/bookings?limit=1`, { key: s.apiKey });
    expect(res.headers.get("Link")).toContain(`</api/v1/providers/${first}/bookings?limit=1&page=2>; rel="next"`);
  });
});

describe("error", () => {
  it("rejects unknown query fields (providerId included) and an unknown status", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    await validationError(
      await api("GET", `/providers/${provider.id}/bookings?providerId=x`, { key: apiKey }),
      "providerId",
    );
    await validationError(
      await api("GET", `/providers/${provider.id}/bookings?status=DONE`, { key: apiKey }),
      "status",
    );
  });

  it("from not before to is a 422 on to", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const query = "?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z";
    await validationError(await api("GET", `/providers/${provider.id}/bookings${query}`, { key: apiKey }), "to");
  });

  it("an unknown provider is 404", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/providers/prv_unknown/bookings", { key: apiKey }), 404, "not_found");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    await expectUnauthorized(await api("GET", `/providers/${provider.id}/bookings`), false);
  });

  it("a revoked key gets a 401 and no bookings", async () => {
    const s = await salon(1);
    const [provider] = s.providerIds as [string];
    await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: provider, customerName: "Zelda Q" }));
    const res = await api("GET", `/providers/${provider}/bookings`, { key: await revokedKey(s.businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("a revoked key naming an unknown id gets the 401, never the 404 (the key is checked in the same batch, first)", async () => {
    const s = await salon(1);
    const unknown = unknownIdLike(s.providerIds[0] as string);
    await expectUnauthorized(
      await api("GET", `/providers/${unknown}/bookings`, { key: await revokedKey(s.businessId) }),
      true,
    );
  });

  it("another business's provider is the 404 of an unknown id, naming nothing of the owner", async () => {
    const owner = await salon(1);
    const other = await createAccount("Other");
    const [provider] = owner.providerIds as [string];
    await book(owner.apiKey, bookingBody(owner.cut, at(3, "10:00"), { providerId: provider, customerName: "Zelda Q" }));
    const unknownId = unknownIdLike(provider);
    await expectNotFoundLikeUnknown(
      await api("GET", `/providers/${provider}/bookings`, { key: other.apiKey }),
      provider,
      await api("GET", `/providers/${unknownId}/bookings`, { key: other.apiKey }),
      unknownId,
      ["Zelda Q", "Stylist 0", owner.businessId, owner.cut],
    );
  });
});
