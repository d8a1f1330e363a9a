/** `/providers`: the resource, its conditional requests, its calendar settings and its bookings list. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { providerCalendarOf } from "../../src/calendar/provider/client";
import {
  api,
  createAccount,
  createCustomer,
  createService,
  insertBooking,
  json,
  problem,
  serviceBody,
  totalOf,
  validationError,
} from "../helpers";

const providerFields = [
  "active",
  "createdAt",
  "dateOverrides",
  "email",
  "id",
  "name",
  "timezone",
  "updatedAt",
  "weeklySchedule",
];

const providerBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Alex Morgan",
  timezone: "Europe/Berlin",
  weeklySchedule: { mon: [{ start: "09:00", end: "17:00" }], tue: [{ start: "09:00", end: "17:00" }] },
  ...overrides,
});

async function createProvider(key: string, overrides: Record<string, unknown> = {}) {
  const res = await api("POST", "/providers", { key, body: providerBody(overrides) });
  if (res.status !== 201) throw new Error(`provider create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

const storedProviders = async (key: string) =>
  (await totalOf(key, "/providers")) + (await totalOf(key, "/providers?active=false"));

describe("happy", () => {
  it("creates a provider with defaults, Location, ETag and the public shape", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/providers", { key: apiKey, body: providerBody() });
    expect(res.status).toBe(201);
    const provider = await json(res);
    expect(Object.keys(provider).sort()).toEqual(providerFields);
    expect(provider.id).toMatch(/^prv_[0-9a-z]{26}$/);
    expect(provider).toMatchObject({ name: "Alex Morgan", email: null, active: true, dateOverrides: [] });
    expect(res.headers.get("Location")).toBe(`/api/v1/providers/${provider.id}`);
    expect(res.headers.get("ETag")).toBe('"v1"');
    const fetched = await api("GET", `/providers/${provider.id}`, { key: apiKey });
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("ETag")).toBe('"v1"');
    expect(await json(fetched)).toEqual(provider);
  });

  it("stores e-mail and date overrides, and PATCH replaces the override list", async () => {
    const { apiKey } = await createAccount();
    const dateOverrides = [
      { date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] },
      { date: "2026-12-25", intervals: [] },
    ];
    const provider = await createProvider(apiKey, { email: "alex@example.com", dateOverrides });
    expect(provider).toMatchObject({ email: "alex@example.com", dateOverrides });
    const replaced = [{ date: "2026-12-31", intervals: [] }];
    const res = await api("PATCH", `/providers/${provider.id}`, { key: apiKey, body: { dateOverrides: replaced } });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ dateOverrides: replaced, email: "alex@example.com" });
  });

  it("lists active providers by default, inactive ones with active=false, newest first with Link", async () => {
    const { apiKey } = await createAccount();
    const first = await createProvider(apiKey, { name: "First" });
    const second = await createProvider(apiKey, { name: "Second" });
    const retired = await createProvider(apiKey, { name: "Retired", active: false });
    const res = await api("GET", "/providers?limit=1", { key: apiKey });
    const page = await json(res);
    expect(page.data.map((p: { id: string }) => p.id)).toEqual([second.id]);
    expect(page.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2, hasMore: true });
    expect(res.headers.get("Link")).toContain('rel="next"');
    const all = await json(await api("GET", "/providers", { key: apiKey }));
    expect(all.data.map((p: { id: string }) => p.id)).toEqual([second.id, first.id]);
    const inactive = await json(await api("GET", "/providers?active=false", { key: apiKey }));
    expect(inactive.data).toEqual([retired]);
  });

  it("PATCH bumps the version ETag, honours If-Match and If-None-Match", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const path = `/providers/${provider.id}`;
    expect((await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } })).status).toBe(304);
    const patched = await api("PATCH", path, {
      key: apiKey,
      body: { name: "Alex M." },
      headers: { "If-Match": '"v1"' },
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("ETag")).toBe('"v2"');
    const stale = await api("PATCH", path, { key: apiKey, body: { name: "Lost" }, headers: { "If-Match": '"v1"' } });
    await problem(stale, 412, "precondition_failed");
    expect(stale.headers.get("ETag")).toBe('"v2"');
    expect((await json(await api("GET", path, { key: apiKey }))).name).toBe("Alex M.");
    expect((await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } })).status).toBe(200);
  });

  it("concurrent PATCHes with the same If-Match: exactly one wins", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api("PATCH", `/providers/${provider.id}`, {
          key: apiKey,
          body: { name: `N${i}` },
          headers: { "If-Match": '"v1"' },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
  });

  it("POST and PATCH have pushed the settings to the provider calendar before answering", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    const calendar = providerCalendarOf(env, businessId, provider.id);
    expect((await calendar.snapshot()).provider).toMatchObject({ id: provider.id, version: 1, active: true });
    await api("PATCH", `/providers/${provider.id}`, { key: apiKey, body: { active: false, timezone: "Asia/Tokyo" } });
    expect((await calendar.snapshot()).provider).toMatchObject({ version: 2, active: false, timezone: "Asia/Tokyo" });
  });

  it("GET /providers/{id}/bookings lists the person's bookings across services, newest first, filtered", async () => {
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

    const ids = async (query = "") => {
      const res = await api("GET", `/providers/${provider.id}/bookings${query}`, { key: apiKey });
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body.pagination.total).toBe(body.data.length);
      return body.data.map((x: { id: string }) => x.id);
    };
    expect(await ids()).toEqual([c.id, b.id, a.id]);
    expect(await ids(`?serviceId=${cut.id}`)).toEqual([c.id, a.id]);
    expect(await ids("?status=CONFIRMED")).toEqual([b.id, a.id]);
    expect(await ids("?from=2026-12-02T00:00:00Z&to=2026-12-03T00:00:00Z")).toEqual([b.id]);
    const one = await json(await api("GET", `/providers/${provider.id}/bookings?limit=1`, { key: apiKey }));
    expect(one.data[0]).toMatchObject({ id: c.id, providerId: provider.id, serviceId: cut.id });
  });
});

describe("errors", () => {
  const invalidBodies: [string, Record<string, unknown>, string][] = [
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone"],
    ["a bad interval", { weeklySchedule: { mon: [{ start: "17:00", end: "09:00" }] } }, "weeklySchedule.mon.0.end"],
    ["a bad e-mail", { email: "not-an-email" }, "email"],
    ["a missing name", { name: undefined }, "name"],
    ["an unknown field", { colour: "red" }, "colour"],
    ["an impossible override date", { dateOverrides: [{ date: "2026-02-30", intervals: [] }] }, "dateOverrides.0.date"],
    [
      "a repeated override date",
      {
        dateOverrides: [
          { date: "2026-12-24", intervals: [] },
          { date: "2026-12-24", intervals: [{ start: "09:00", end: "10:00" }] },
        ],
      },
      "dateOverrides.1.date",
    ],
    [
      "overlapping override intervals",
      {
        dateOverrides: [
          {
            date: "2026-12-24",
            intervals: [
              { start: "09:00", end: "12:00" },
              { start: "11:00", end: "13:00" },
            ],
          },
        ],
      },
      "dateOverrides.0.intervals.1",
    ],
    [
      "an unknown override field",
      { dateOverrides: [{ date: "2026-12-24", intervals: [], note: "x" }] },
      "dateOverrides.0.note",
    ],
    [
      "more than 366 overrides",
      {
        dateOverrides: Array.from({ length: 367 }, (_, i) => ({
          date: new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
          intervals: [],
        })),
      },
      "dateOverrides",
    ],
  ];

  it.each(invalidBodies)("POST rejects %s with 422 naming the path and stores nothing", async (_, overrides, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("POST", "/providers", { key: apiKey, body: providerBody(overrides) }), path);
    expect(await storedProviders(apiKey)).toBe(0);
  });

  it.each([
    ["an empty body", {}, "(root)"],
    ["a null name", { name: null }, "name"],
    ["an unknown field", { version: 7 }, "version"],
    ["a bad override", { dateOverrides: [{ date: "24.12.2026", intervals: [] }] }, "dateOverrides.0.date"],
  ] as [string, Record<string, unknown>, string][])(
    "PATCH rejects %s with 422 and changes nothing",
    async (_, body, path) => {
      const { apiKey } = await createAccount();
      const provider = await createProvider(apiKey);
      await validationError(await api("PATCH", `/providers/${provider.id}`, { key: apiKey, body }), path);
      const after = await api("GET", `/providers/${provider.id}`, { key: apiKey });
      expect(after.headers.get("ETag")).toBe('"v1"');
      expect(await json(after)).toEqual(provider);
    },
  );

  it("rejects active=maybe and unknown query fields on the lists", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    await validationError(await api("GET", "/providers?active=maybe", { key: apiKey }), "active");
    await validationError(await api("GET", "/providers?colour=red", { key: apiKey }), "colour");
    await validationError(
      await api("GET", `/providers/${provider.id}/bookings?providerId=x`, { key: apiKey }),
      "providerId",
    );
    await validationError(
      await api("GET", `/providers/${provider.id}/bookings?status=DONE`, { key: apiKey }),
      "status",
    );
  });

  it("unknown ids are 404", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("GET", "/providers/prv_unknown", { key: apiKey }), 404, "not_found");
    await problem(await api("PATCH", "/providers/prv_unknown", { key: apiKey, body: { name: "x" } }), 404, "not_found");
    await problem(await api("GET", "/providers/prv_unknown/bookings", { key: apiKey }), 404, "not_found");
  });
});

describe("security", () => {
  it("every providers route needs an API key", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    for (const [method, path, body] of [
      ["GET", "/providers", undefined],
      ["POST", "/providers", providerBody()],
      ["GET", `/providers/${provider.id}`, undefined],
      ["PATCH", `/providers/${provider.id}`, { name: "Hijacked" }],
      ["GET", `/providers/${provider.id}/bookings`, undefined],
    ] as const) {
      await problem(await api(method, path, { body }), 401, "unauthorized");
    }
    expect(await storedProviders(apiKey)).toBe(1);
  });

  it("another business cannot read, list, change or list the bookings of the provider", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const provider = await createProvider(owner.apiKey);
    await problem(await api("GET", `/providers/${provider.id}`, { key: other.apiKey }), 404, "not_found");
    await problem(
      await api("PATCH", `/providers/${provider.id}`, { key: other.apiKey, body: { name: "Hijacked" } }),
      404,
      "not_found",
    );
    await problem(await api("GET", `/providers/${provider.id}/bookings`, { key: other.apiKey }), 404, "not_found");
    expect(await totalOf(other.apiKey, "/providers")).toBe(0);
    expect((await json(await api("GET", `/providers/${provider.id}`, { key: owner.apiKey }))).name).toBe("Alex Morgan");
  });
});

describe("contract", () => {
  it("documents every providers route under the Providers tag, with examples that are valid as written", async () => {
    const doc = await json(await api("GET", "/openapi.json"));
    expect(doc.tags.map((t: { name: string }) => t.name)).toContain("Providers");
    const operations = [
      ["/providers", "get"],
      ["/providers", "post"],
      ["/providers/{id}", "get"],
      ["/providers/{id}", "patch"],
      ["/providers/{id}/bookings", "get"],
    ];
    for (const [path, method] of operations) {
      expect(doc.paths[path as string]?.[method as string]?.tags, `${method} ${path}`).toEqual(["Providers"]);
    }
    const { apiKey } = await createAccount();
    const created = await api("POST", "/providers", {
      key: apiKey,
      body: doc.components.schemas.CreateProvider.example,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = await json(created);
    const patched = await api("PATCH", `/providers/${id}`, {
      key: apiKey,
      body: doc.components.schemas.UpdateProvider.example,
    });
    expect(patched.status).toBe(200);
    const providerIds = [id];
    const dateOverrides = doc.components.schemas.Service.properties.dateOverrides.example;
    const service = await api("POST", "/services", { key: apiKey, body: serviceBody({ dateOverrides, providerIds }) });
    expect(service.status, await service.clone().text()).toBe(201);
  });
});
