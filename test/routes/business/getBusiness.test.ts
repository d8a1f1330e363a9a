/** GET /business: the key's own business and its settings, with an ETag; nobody else's. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, validationError } from "../../support/api";
import { expectUnauthorized, revokedKey } from "../../support/security";

describe("happy", () => {
  it("answers the business with its default settings and a version ETag", async () => {
    const { apiKey, businessId } = await createAccount("Acme Hair");
    const res = await api("GET", "/business", { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v1"');
    expect(await json(res)).toMatchObject({
      id: businessId,
      name: "Acme Hair",
      slug: null,
      timezone: "UTC",
      locale: "en",
      contactEmail: null,
      bookingPage: { enabled: false },
      emails: { enabled: false },
      version: 1,
    });
  });

  it("answers 304 to If-None-Match naming the current ETag", async () => {
    const { apiKey } = await createAccount();
    const res = await api("GET", "/business", { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe("");
  });
});

describe("error", () => {
  it("a query parameter is a 422 naming it (the business takes none)", async () => {
    const { apiKey } = await createAccount();
    await validationError(await api("GET", "/business?slug=other", { key: apiKey }), "slug");
  });

  it("a stale If-None-Match gets the whole business", async () => {
    const { apiKey } = await createAccount();
    await api("PATCH", "/business", { key: apiKey, body: { locale: "de" } });
    const res = await api("GET", "/business", { key: apiKey, headers: { "If-None-Match": '"v1"' } });
    expect(res.status).toBe(200);
    expect((await json(res)).locale).toBe("de");
  });
});

describe("security", () => {
  it("without a key: 401 with the Bearer challenge", async () => {
    await expectUnauthorized(await api("GET", "/business"), false);
  });

  it("a revoked key: 401", async () => {
    const { businessId } = await createAccount();
    await expectUnauthorized(await api("GET", "/business", { key: await revokedKey(businessId) }), true);
  });

  it("each key sees its own business only", async () => {
    const a = await createAccount("First");
    const b = await createAccount("Second");
    await api("PATCH", "/business", { key: a.apiKey, body: { contactEmail: "first@example.com" } });
    const seen = await json(await api("GET", "/business", { key: b.apiKey }));
    expect(seen).toMatchObject({ id: b.businessId, name: "Second", contactEmail: null });
    expect(JSON.stringify(seen)).not.toContain(a.businessId);
  });
});
