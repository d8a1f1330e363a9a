/** GET /public/{slug}/services: what a booking page offers, and nothing else of the business. */
import { describe, expect, it } from "vitest";
import { api, createAccount, createService, json, problem } from "../../support/api";
import { createProvider } from "../../support/fixtures";
import { enablePage, pageBusiness, pageWithProviders, viaPage } from "../../support/public";

describe("happy", () => {
  it("lists the active services marked bookableOnline, by name, with the page's business", async () => {
    const f = await pageBusiness({ name: "Massage", description: "Deep tissue.", durationMinutes: 30 });
    await createService(f.apiKey, { name: "Back office", bookableOnline: false });
    await createService(f.apiKey, { name: "Archived", bookableOnline: true, active: false });
    const beard = await createService(f.apiKey, { name: "Beard", bookableOnline: true, durationMinutes: 15 });
    await api("PATCH", "/business", {
      key: f.apiKey,
      body: { bookingPage: { enabled: true, title: "Book us", accentColor: "#0f766e" } },
    });
    const res = await viaPage(f.slug, "GET", "/services");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.business).toEqual({
      name: "Page Salon",
      title: "Book us",
      locale: "en",
      timezone: "UTC",
      accentColor: "#0f766e",
    });
    expect(body.services.map((s: { name: string }) => s.name)).toEqual(["Beard", "Massage"]);
    expect(body.services[1]).toEqual({
      id: f.serviceId,
      name: "Massage",
      description: "Deep tissue.",
      durationMinutes: 30,
      timezone: "UTC",
      maxAdvanceDays: 365,
      providerMode: "one",
      providers: [],
      questions: [],
      requiresConfirmation: false,
      cancellationNoticeMinutes: 0,
      rescheduleNoticeMinutes: 0,
    });
    expect(body.services[0].id).toBe(beard.id);
  });

  it("names each service's active people, by name, and nobody else", async () => {
    const f = await pageWithProviders(2);
    const left = await createProvider(f.apiKey, { name: "Away", active: false });
    await api("PATCH", `/services/${f.serviceId}`, {
      key: f.apiKey,
      body: { providerIds: [...f.providerIds, left.id] },
    });
    const body = await json(await viaPage(f.slug, "GET", "/services"));
    expect(body.services[0].providers).toEqual([
      { id: f.providerIds[0], name: "Stylist 0" },
      { id: f.providerIds[1], name: "Stylist 1" },
    ]);
  });

  it("answers any origin (CORS *), preflight included", async () => {
    const f = await pageBusiness();
    const cross = await api("GET", `/public/${f.slug}/services`, {
      key: null,
      headers: { Origin: "https://shop.example" },
    });
    expect(cross.headers.get("Access-Control-Allow-Origin")).toBe("*");
    const preflight = await api("OPTIONS", `/public/${f.slug}/holds`, {
      key: null,
      headers: {
        Origin: "https://shop.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toContain("POST");
  });
});

describe("error", () => {
  it("an unknown, malformed or disabled page is the same 404", async () => {
    const { apiKey } = await createAccount();
    const slug = await enablePage(apiKey, { bookingPage: { enabled: false } });
    for (const wrong of [slug, "no-such-page", "UPPER", "a", "x".repeat(64)]) {
      const body = await problem(await viaPage(wrong, "GET", "/services"), 404, "not_found");
      expect(body.detail).toBe("There is no booking page at this address.");
    }
  });

  it("a page with nothing offered online lists no services", async () => {
    const { apiKey } = await createAccount();
    await createService(apiKey, { name: "Private" });
    const slug = await enablePage(apiKey);
    expect((await json(await viaPage(slug, "GET", "/services"))).services).toEqual([]);
  });
});

describe("security", () => {
  it("shows nothing private: no e-mail address, no customer, no capacity, no key", async () => {
    const f = await pageWithProviders(1);
    await api("PATCH", `/providers/${f.providerIds[0]}`, { key: f.apiKey, body: { email: "stylist@salon.example" } });
    const text = await (await viaPage(f.slug, "GET", "/services")).text();
    expect(text).not.toMatch(/@|capacity|biz_|apiKey|linkKeyVersion|customer/i);
  });

  it("one business's page never lists another's services", async () => {
    const a = await pageBusiness({ name: "Alpha cut" });
    const b = await pageBusiness({ name: "Beta cut" });
    const names = (await json(await viaPage(a.slug, "GET", "/services"))).services.map((s: { name: string }) => s.name);
    expect(names).toEqual(["Alpha cut"]);
    expect(names).not.toContain("Beta cut");
    expect(b.slug).not.toBe(a.slug);
  });
});
