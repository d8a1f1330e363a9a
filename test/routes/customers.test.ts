import { describe, expect, it } from "vitest";
import { api, createAccount, createCustomer, json, problem, sleep, totalOf, validationError } from "../helpers";

const customerFields = ["createdAt", "email", "id", "name", "phone", "updatedAt"];

/** Names of the customers a search finds, sorted. */
async function searchNames(key: string, search: string): Promise<string[]> {
  const res = await api("GET", `/customers?search=${encodeURIComponent(search)}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((c: { name: string }) => c.name).sort();
}

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

  it("gets a customer by id", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    const res = await api("GET", `/customers/${customer.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(customer);
  });

  it("lists customers newest first", async () => {
    const { apiKey } = await createAccount();
    const first = await createCustomer(apiKey, { name: "First" });
    await sleep(5);
    const second = await createCustomer(apiKey, { name: "Second" });
    const body = await json(await api("GET", "/customers", { key: apiKey }));
    expect(body.data).toEqual([second, first]);
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

  it("search is a case-insensitive substring of the name", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { name: "Grace Hopper", email: "g@example.com" });
    await createCustomer(apiKey, { name: "Alan Turing", email: "alan@example.com" });
    expect(await searchNames(apiKey, "HOPP")).toEqual(["Grace Hopper"]);
    expect(await searchNames(apiKey, "ace hop")).toEqual(["Grace Hopper"]);
    expect(await searchNames(apiKey, "nobody")).toEqual([]);
  });

  it("search matches the e-mail too, case-insensitively, and ORs with the name", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { name: "Grace Hopper", email: "grace@Navy.mil" });
    await createCustomer(apiKey, { name: "Navy Seal", email: "seal@example.com" });
    await createCustomer(apiKey, { name: "Alan Turing", email: "alan@example.com" });
    expect(await searchNames(apiKey, "NAVY.MIL")).toEqual(["Grace Hopper"]);
    expect(await searchNames(apiKey, "navy")).toEqual(["Grace Hopper", "Navy Seal"]);
  });

  it("search treats % and _ literally", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { name: "100% Pure", email: "pure@example.com" });
    await createCustomer(apiKey, { name: "1000 Pure", email: "thousand@example.com" });
    await createCustomer(apiKey, { name: "a_b Studio", email: "ab@example.com" });
    await createCustomer(apiKey, { name: "axb Studio", email: "axb@example.com" });
    expect(await searchNames(apiKey, "100%")).toEqual(["100% Pure"]);
    expect(await searchNames(apiKey, "%")).toEqual(["100% Pure"]);
    expect(await searchNames(apiKey, "a_b")).toEqual(["a_b Studio"]);
    expect(await searchNames(apiKey, "_")).toEqual(["a_b Studio"]);
  });

  it("search folds case beyond ASCII", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { name: "élodie Martin", email: "em@example.com" });
    await createCustomer(apiKey, { name: "ÖMER DURAN", email: "od@example.com" });
    await createCustomer(apiKey, { name: "Elodie Plain", email: "ep@example.com" });
    expect(await searchNames(apiKey, "ÉLODIE")).toEqual(["élodie Martin"]);
    expect(await searchNames(apiKey, "ömer")).toEqual(["ÖMER DURAN"]);
  });

  it("search ignores surrounding whitespace", async () => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey, { name: "Grace Hopper", email: "g@example.com" });
    expect(await searchNames(apiKey, "  grace ")).toEqual(["Grace Hopper"]);
  });
});

describe("errors", () => {
  it("a second customer with the same e-mail in another case is 409 customer_exists", async () => {
    const { apiKey } = await createAccount();
    const original = await createCustomer(apiKey, { email: "ada@example.com" });
    const res = await api("POST", "/customers", { key: apiKey, body: { name: "Imposter", email: "ADA@Example.COM" } });
    await problem(res, 409, "customer_exists");
    const list = await json(await api("GET", "/customers", { key: apiKey }));
    expect(list.data).toEqual([original]);
  });

  it.each([
    ["an invalid e-mail", { name: "Ada", email: "not-an-email" }, "email"],
    ["a missing e-mail", { name: "Ada" }, "email"],
    ["a missing name", { email: "ada@example.com" }, "name"],
    ["a blank name", { name: "  ", email: "ada@example.com" }, "name"],
    ["a phone with letters", { name: "Ada", email: "ada@example.com", phone: "call me" }, "phone"],
    ["an unknown field", { name: "Ada", email: "ada@example.com", vip: true }, "vip"],
  ])("POST rejects %s with 422 and stores nothing", async (_, body, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("POST", "/customers", { key: apiKey, body }), path);
    expect(await totalOf(apiKey, "/customers")).toBe(0);
  });

  it("GET of an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/customers/cus_unknown", { key: apiKey }), 404, "not_found");
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["longer than 200 characters", "x".repeat(201)],
  ])("an %s search is 422", async (_, search) => {
    const { apiKey } = await createAccount();
    await createCustomer(apiKey);
    const res = await api("GET", `/customers?search=${encodeURIComponent(search)}`, { key: apiKey });
    await validationError(res, "search");
  });
});

describe("security", () => {
  it("every customers route needs an API key", async () => {
    const { apiKey } = await createAccount();
    const customer = await createCustomer(apiKey);
    await problem(await api("GET", "/customers"), 401, "unauthorized");
    await problem(await api("GET", `/customers/${customer.id}`), 401, "unauthorized");
    await problem(
      await api("POST", "/customers", { body: { name: "Eve", email: "eve@example.com" } }),
      401,
      "unauthorized",
    );
    expect(await totalOf(apiKey, "/customers")).toBe(1);
  });

  it("another business cannot read, list or find the customer", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const customer = await createCustomer(owner.apiKey, { name: "Secret Person", email: "secret@example.com" });
    await problem(await api("GET", `/customers/${customer.id}`, { key: other.apiKey }), 404, "not_found");
    expect(await totalOf(other.apiKey, "/customers")).toBe(0);
    expect(await searchNames(other.apiKey, "secret")).toEqual([]);
  });
});
