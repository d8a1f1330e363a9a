/**
 * GET /customers: newest first, with a case-insensitive substring search on name or e-mail.
 * (Paging and the Link header of every list are shown on this list in ../pagination.test.ts.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { api, createAccount, createCustomer, json, totalOf, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

/** Names of the customers a search finds, sorted. */
async function searchNames(key: string, search: string): Promise<string[]> {
  const res = await api("GET", `/customers?search=${encodeURIComponent(search)}`, { key });
  expect(res.status).toBe(200);
  const body = await json(res);
  expect(body.pagination.total).toBe(body.data.length);
  return body.data.map((c: { name: string }) => c.name).sort();
}

afterEach(() => vi.useRealTimers());

describe("happy", () => {
  it("lists customers newest first", async () => {
    const { apiKey } = await createAccount();
    // A second apart on a faked clock: a fast machine makes both within one millisecond.
    const now = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now });
    const first = await createCustomer(apiKey, { name: "First" });
    vi.setSystemTime(now + 1_000);
    const second = await createCustomer(apiKey, { name: "Second" });
    vi.useRealTimers();
    expect(Date.parse(second.createdAt) - Date.parse(first.createdAt)).toBe(1_000);
    const body = await json(await api("GET", "/customers", { key: apiKey }));
    expect(body.data).toEqual([second, first]);
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

  it("leaves erased customers out of the list, its total and search", async () => {
    const { apiKey } = await createAccount();
    const kept = await createCustomer(apiKey, { name: "Kept Person" });
    const erased = await createCustomer(apiKey, { name: "Gone Person" });
    expect((await api("DELETE", `/customers/${erased.id}`, { key: apiKey })).status).toBe(204);
    const body = await json(await api("GET", "/customers", { key: apiKey }));
    expect(body.data).toEqual([kept]);
    expect(body.pagination.total).toBe(1);
    expect(await searchNames(apiKey, "person")).toEqual(["Kept Person"]);
  });
});

describe("error", () => {
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
  it("without an API key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/customers"), false);
  });

  it("a revoked key gets a 401 and no customers", async () => {
    const { apiKey, businessId } = await createAccount();
    await createCustomer(apiKey, { name: "Zelda Quixotewright" });
    const res = await api("GET", "/customers?search=zelda", { key: await revokedKey(businessId) });
    const text = await res.clone().text();
    await expectUnauthorized(res, true);
    expect(text).not.toContain("Zelda");
  });

  it("another business cannot list or find the customer", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    await createCustomer(owner.apiKey, { name: "Secret Person", email: "secret@example.com" });
    expect(await totalOf(other.apiKey, "/customers")).toBe(0);
    expect(await searchNames(other.apiKey, "secret")).toEqual([]);
  });
});
