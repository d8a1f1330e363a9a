/** PATCH /business: settings replaced as sent, a unique slug, If-Match; bad input changes nothing. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { expectUnauthorized } from "../../support/security";

const patchBusiness = (key: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", "/business", { key, body, headers });

/** A slug no other test file's business has (slugs are unique across businesses). */
const uniqueSlug = (stem: string) => `${stem}-${crypto.randomUUID().slice(0, 8)}`;

describe("happy", () => {
  it("sets the slug, locale, contact and both settings, and bumps the ETag", async () => {
    const { apiKey } = await createAccount();
    const slug = uniqueSlug("acme-hair");
    const res = await patchBusiness(apiKey, {
      slug,
      locale: "de",
      timezone: "Europe/Berlin",
      contactEmail: "hello@example.com",
      bookingPage: { enabled: true, title: "Book a cut", accentColor: "#0b6e4f" },
      emails: { enabled: true, fromName: "Acme Hair", replyTo: "desk@example.com" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("ETag")).toBe('"v2"');
    const business = await json(res);
    expect(business).toMatchObject({
      slug,
      locale: "de",
      timezone: "Europe/Berlin",
      contactEmail: "hello@example.com",
      bookingPage: { enabled: true, title: "Book a cut", accentColor: "#0b6e4f" },
      emails: { enabled: true, fromName: "Acme Hair", replyTo: "desk@example.com" },
      version: 2,
    });
    expect(await json(await api("GET", "/business", { key: apiKey }))).toEqual(business);
  });

  it("replaces a nested setting whole and keeps the fields not sent", async () => {
    const { apiKey } = await createAccount();
    await patchBusiness(apiKey, { emails: { enabled: true, fromName: "Desk" }, contactEmail: "a@example.com" });
    const business = await json(await patchBusiness(apiKey, { emails: { enabled: false } }));
    expect(business.emails).toEqual({ enabled: false });
    expect(business.contactEmail).toBe("a@example.com");
  });

  it("a new name reaches the key's next request", async () => {
    const { apiKey } = await createAccount("Old Name");
    await api("GET", "/services", { key: apiKey });
    expect((await json(await patchBusiness(apiKey, { name: "New Name" }))).name).toBe("New Name");
    expect((await json(await api("GET", "/business", { key: apiKey }))).name).toBe("New Name");
  });

  it("If-Match: the current ETag applies, a stale one is 412; concurrent writers with one ETag: one wins", async () => {
    const { apiKey } = await createAccount();
    const results = await Promise.all(
      ["en", "de", "en", "de", "en"].map((locale) => patchBusiness(apiKey, { locale }, { "If-Match": '"v1"' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412]);
    const stale = await patchBusiness(apiKey, { locale: "de" }, { "If-Match": '"v1"' });
    await problem(stale, 412, "precondition_failed");
    expect((await json(await api("GET", "/business", { key: apiKey }))).version).toBe(2);
  });

  it("a slug can be cleared and then taken by another business", async () => {
    const a = await createAccount();
    const b = await createAccount();
    const slug = uniqueSlug("freed");
    await patchBusiness(a.apiKey, { slug });
    expect((await json(await patchBusiness(a.apiKey, { slug: null }))).slug).toBeNull();
    expect((await patchBusiness(b.apiKey, { slug })).status).toBe(200);
  });
});

describe("error", () => {
  it.each([
    ["an empty body", {}, "(root)"],
    ["a slug with capitals", { slug: "Acme" }, "slug"],
    ["a slug of two characters", { slug: "ab" }, "slug"],
    ["a slug ending with -", { slug: "acme-" }, "slug"],
    ["an unknown locale", { locale: "fr" }, "locale"],
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone"],
    ["a replyTo that is not an e-mail", { emails: { enabled: true, replyTo: "desk" } }, "emails.replyTo"],
    ["emails without enabled", { emails: { fromName: "Desk" } }, "emails.enabled"],
    ["an accent colour by name", { bookingPage: { enabled: true, accentColor: "green" } }, "bookingPage.accentColor"],
    ["an unknown field", { id: "biz_other" }, "id"],
    ["an unknown nested field", { bookingPage: { enabled: true, logo: "x" } }, "bookingPage.logo"],
    ["conflicts without notifyCustomer", { conflicts: {} }, "conflicts.notifyCustomer"],
    ["notifyCustomer as a word", { conflicts: { notifyCustomer: "yes" } }, "conflicts.notifyCustomer"],
    ["an unknown field of conflicts", { conflicts: { notifyCustomer: true, sms: true } }, "conflicts.sms"],
  ] as [string, Record<string, unknown>, string][])(
    "rejects %s with 422 and changes nothing",
    async (_, body, path) => {
      const { apiKey } = await createAccount();
      const before = await json(await api("GET", "/business", { key: apiKey }));
      await validationError(await patchBusiness(apiKey, body), path);
      expect(await json(await api("GET", "/business", { key: apiKey }))).toEqual(before);
    },
  );

  it("a slug another business has is 409 slug_taken, concurrent claims: one wins", async () => {
    const accounts = await Promise.all([createAccount(), createAccount(), createAccount(), createAccount()]);
    const slug = uniqueSlug("popular");
    const results = await Promise.all(accounts.map((a) => patchBusiness(a.apiKey, { slug })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    const refused = results.find((r) => r.status === 409) as Response;
    expect((await problem(refused, 409, "slug_taken")).errors).toEqual([{ path: "slug", message: expect.any(String) }]);
    const owners = await Promise.all(
      accounts.map(async (a) => (await json(await api("GET", "/business", { key: a.apiKey }))).slug),
    );
    expect(owners.filter((s) => s === slug)).toHaveLength(1);
  });
});

describe("security", () => {
  it("without a key: 401, nothing changed", async () => {
    await expectUnauthorized(await api("PATCH", "/business", { body: { locale: "de" } }), false);
  });

  it("changes only the key's own business", async () => {
    const a = await createAccount("First");
    const b = await createAccount("Second");
    await patchBusiness(a.apiKey, { name: "Renamed", locale: "de" });
    expect(await json(await api("GET", "/business", { key: b.apiKey }))).toMatchObject({
      name: "Second",
      locale: "en",
      version: 1,
    });
  });
});
