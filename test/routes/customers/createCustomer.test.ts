/** POST /customers: create a customer; e-mail addresses are unique per business, in any case. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, json, problem, totalOf, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

const customerFields = ["createdAt", "email", "id", "name", "phone", "updatedAt"];

describe("happy", () => {
  it("creates a customer: 201, Location, the public shape, e-mail kept as written", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/customers", {
      key: apiKey,
      body: { name: "Ada Lovelace", email: "Ada@Example.com", phone: "+44 20 7946 0000" },
    });
    expect(res.status).toBe(201);
    const customer = await json(res);
    expect(Object.keys(customer).sort()).toEqual(customerFields);
    expect(customer).toMatchObject({ name: "Ada Lovelace", email: "Ada@Example.com", phone: "+44 20 7946 0000" });
    expect(customer.id).toMatch(/^cus_[0-9a-z]{26}$/);
    expect(res.headers.get("Location")).toBe(`/api/v1/customers/${customer.id}`);
    expect(customer.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });

  it("phone is optional and null when absent", async () => {
    const { apiKey } = await createAccount();
    expect((await createCustomer(apiKey)).phone).toBeNull();
  });

  it("the same e-mail may belong to customers of two businesses", async () => {
    const a = await createAccount("A");
    const b = await createAccount("B");
    await createCustomer(a.apiKey, { email: "shared@example.com" });
    const res = await api("POST", "/customers", {
      key: b.apiKey,
      body: { name: "Other", email: "shared@example.com" },
    });
    expect(res.status).toBe(201);
  });
});

describe("error", () => {
  it("a second customer with the same e-mail in another case is 409 customer_exists", async () => {
    const { apiKey } = await createAccount();
    const original = await createCustomer(apiKey, { email: "ada@example.com" });
    const res = await api("POST", "/customers", { key: apiKey, body: { name: "Imposter", email: "ADA@Example.COM" } });
    await problem(res, 409, "customer_exists");
    const list = await json(await api("GET", "/customers", { key: apiKey }));
    expect(list.data).toEqual([original]);
  });

  it("20 creates with one e-mail at once, in different cases: exactly one customer, the rest 409 customer_exists", async () => {
    const { apiKey } = await createAccount();
    const emails = Array.from({ length: 20 }, (_, i) => (i % 2 ? "grace@example.com" : "GRACE@Example.com"));
    const answers = await Promise.all(
      emails.map((email, i) => api("POST", "/customers", { key: apiKey, body: { name: `Grace ${i}`, email } })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const refused of answers.filter((r) => r.status !== 201)) await problem(refused, 409, "customer_exists");
    expect((await json(await api("GET", "/customers", { key: apiKey }))).pagination.total).toBe(1);
  });

  it.each([
    ["an invalid e-mail", { name: "Ada", email: "not-an-email" }, "email"],
    ["a missing e-mail", { name: "Ada" }, "email"],
    ["a missing name", { email: "ada@example.com" }, "name"],
    ["a blank name", { name: "  ", email: "ada@example.com" }, "name"],
    ["a phone with letters", { name: "Ada", email: "ada@example.com", phone: "call me" }, "phone"],
    ["an unknown field", { name: "Ada", email: "ada@example.com", vip: true }, "vip"],
  ])("rejects %s with 422 and stores nothing", async (_, body, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("POST", "/customers", { key: apiKey, body }), path);
    expect(await totalOf(apiKey, "/customers")).toBe(0);
  });

  it("an address under the reserved domain .invalid (what erased customers get) is 422 at email", async () => {
    const { apiKey } = await createAccount();
    for (const email of ["someone@example.invalid", "erased-cus_00000000000000000000000000@invalid"]) {
      await validationError(await api("POST", "/customers", { key: apiKey, body: { name: "Ada", email } }), "email");
    }
    expect(await totalOf(apiKey, "/customers")).toBe(0);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing stored", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey);
    await expectUnauthorized(
      await api("POST", "/customers", { body: { name: "Eve", email: "eve@example.com" } }),
      false,
    );
    expect(await totalOf(apiKey, "/customers")).toBe(1);
  });

  it("a revoked key: 401, nothing stored", async () => {
    const { apiKey, businessId } = await createAccount();
    const res = await api("POST", "/customers", {
      key: await revokedKey(businessId),
      body: { name: "Eve", email: "eve@example.com" },
    });
    await expectUnauthorized(res, true);
    expect(await totalOf(apiKey, "/customers")).toBe(0);
  });

  it("a key acts only for its own business", async () => {
    const a = await createAccount("A");
    const b = await createAccount("B");
    const created = await createCustomer(a.apiKey, { email: "mine@example.com" });
    // B may create the same e-mail: A's customer is invisible to B, not a conflict.
    const res = await api("POST", "/customers", { key: b.apiKey, body: { name: "B's", email: "MINE@example.com" } });
    expect(res.status).toBe(201);
    expect((await json(res)).id).not.toBe(created.id);
    expect((await json(await api("GET", "/customers", { key: a.apiKey }))).data).toEqual([created]);
  });
});
