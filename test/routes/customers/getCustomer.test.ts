/** GET /customers/{id}: one customer, with its ETag. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, json, problem, validationError } from "../../support/api";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("gets a customer by id", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const res = await api("GET", `/customers/${customer.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(customer);
  });

  it("sends an ETag; If-None-Match with it is a 304 without a body until the customer changes", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const path = `/customers/${customer.id}`;
    const etag = (await api("GET", path, { key: apiKey })).headers.get("ETag") as string;
    expect(etag).toMatch(/^"[^"\s]+"$/);
    const notModified = await api("GET", path, { key: apiKey, headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    expect((await api("PATCH", path, { key: apiKey, body: { phone: "+1 555 0100" } })).status).toBe(200);
    const changed = await api("GET", path, { key: apiKey, headers: { "If-None-Match": etag } });
    expect(changed.status).toBe(200);
    expect((await json(changed)).phone).toBe("+1 555 0100");
  });
});

describe("error", () => {
  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/customers/cus_unknown", { key: apiKey }), 404, "not_found");
  });

  it("an erased customer is 404 like one that never existed", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    expect((await api("DELETE", `/customers/${customer.id}`, { key: apiKey })).status).toBe(204);
    await problem(await api("GET", `/customers/${customer.id}`, { key: apiKey }), 404, "not_found");
  });

  it("an id longer than 64 characters is 422 at id", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", `/customers/cus_${"x".repeat(61)}`, { key: apiKey }), "id");
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    await expectUnauthorized(await api("GET", `/customers/${customer.id}`), false);
  });

  it("a revoked key gets a 401 and not the customer", async () => {
    const { apiKey, businessId } = await createAccount();
    const customer = await createCustomer(apiKey, { name: "Zelda Quixotewright" });
    const res = await api("GET", `/customers/${customer.id}`, { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("another business gets the 404 of an unknown id, naming nothing of the owner or the person", async () => {
    const owner = await createAccount("Owner Bakery");
    const other = await createAccount("Other");
    const customer = await createCustomer(owner.apiKey, { name: "Secret Person", email: "secret@example.com" });
    const unknownId = unknownIdLike(customer.id);
    await expectNotFoundLikeUnknown(
      await api("GET", `/customers/${customer.id}`, { key: other.apiKey }),
      customer.id,
      await api("GET", `/customers/${unknownId}`, { key: other.apiKey }),
      unknownId,
      ["Owner Bakery", "Secret Person", "secret@example.com", owner.businessId],
    );
  });
});
