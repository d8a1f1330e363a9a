/** POST /providers: a person (or a room, a chair) who performs services, with own hours. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { providerCalendarOf } from "../../../src/calendar/stubs";
import { api, createAccount, createService, json, problem, totalOf, validationError } from "../../support/api";
import { at, bookingBody, postBooking } from "../../support/bookings";
import { createProvider, everyDay, providerBody } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

const providerFields = [
  "active",
  "createdAt",
  "dateOverrides",
  "email",
  "id",
  "limits",
  "name",
  "timezone",
  "updatedAt",
  "weeklySchedule",
];

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
    expect(provider).toMatchObject({
      name: "Alex Morgan",
      email: null,
      active: true,
      dateOverrides: [],
      limits: { perDay: null },
    });
    expect(res.headers.get("Location")).toBe(`/api/v1/providers/${provider.id}`);
    expect(res.headers.get("ETag")).toBe('"v1"');
    const fetched = await api("GET", `/providers/${provider.id}`, { key: apiKey });
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("ETag")).toBe('"v1"');
    expect(await json(fetched)).toEqual(provider);
  });

  it("stores the e-mail and date overrides", async () => {
    const { apiKey } = await createAccount();
    const dateOverrides = [
      { date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] },
      { date: "2026-12-25", intervals: [] },
    ];
    const provider = await createProvider(apiKey, { email: "alex@example.com", dateOverrides });
    expect(provider).toMatchObject({ email: "alex@example.com", dateOverrides });
    expect(await json(await api("GET", `/providers/${provider.id}`, { key: apiKey }))).toEqual(provider);
  });

  it("stores a daily limit at its bounds, pushed to the provider's calendar, which refuses past it", async () => {
    const { apiKey, businessId } = await createAccount();
    expect((await createProvider(apiKey, { limits: { perDay: 1000 } })).limits).toEqual({ perDay: 1000 });
    expect((await createProvider(apiKey, { limits: { perDay: null } })).limits).toEqual({ perDay: null });
    const provider = await createProvider(apiKey, { limits: { perDay: 1 }, timezone: "UTC", weeklySchedule: everyDay });
    expect(provider.limits).toEqual({ perDay: 1 });
    expect(await json(await api("GET", `/providers/${provider.id}`, { key: apiKey }))).toEqual(provider);
    const calendar = providerCalendarOf(env, businessId, provider.id);
    expect((await calendar.snapshot()).settings).toMatchObject({ limits: { perDay: 1 } });
    const service = await createService(apiKey, { providerIds: [provider.id] });
    expect((await postBooking(apiKey, bookingBody(service.id, at(3, "09:00")))).status).toBe(201);
    const over = await postBooking(apiKey, bookingBody(service.id, at(3, "10:00"), { providerId: provider.id }));
    expect((await problem(over, 409, "slot_unavailable")).reason).toBe("limit_reached");
  });

  it("has pushed the settings to the provider calendar before answering", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    const calendar = providerCalendarOf(env, businessId, provider.id);
    expect((await calendar.snapshot()).settings).toMatchObject({ id: provider.id, version: 1, active: true });
  });
});

describe("error", () => {
  const invalidBodies: [string, Record<string, unknown>, string][] = [
    ["an unknown time zone", { timezone: "Mars/Olympus" }, "timezone"],
    ["a bad interval", { weeklySchedule: { mon: [{ start: "17:00", end: "09:00" }] } }, "weeklySchedule.mon.0.end"],
    ["a bad e-mail", { email: "not-an-email" }, "email"],
    ["a missing name", { name: undefined }, "name"],
    ["an unknown field", { colour: "red" }, "colour"],
    ["limits.perDay 0", { limits: { perDay: 0 } }, "limits.perDay"],
    ["a negative limits.perDay", { limits: { perDay: -3 } }, "limits.perDay"],
    ["a fractional limits.perDay", { limits: { perDay: 1.5 } }, "limits.perDay"],
    ['limits.perDay "4"', { limits: { perDay: "4" } }, "limits.perDay"],
    ["limits.perDay 1,001", { limits: { perDay: 1001 } }, "limits.perDay"],
    ["a huge limits.perDay", { limits: { perDay: 1e300 } }, "limits.perDay"],
    ["a limit per week (people have days only)", { limits: { perWeek: 5 } }, "limits.perWeek"],
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

  it.each(invalidBodies)("rejects %s with 422 naming the path and stores nothing", async (_, overrides, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("POST", "/providers", { key: apiKey, body: providerBody(overrides) }), path);
    expect(await storedProviders(apiKey)).toBe(0);
  });

  it("malformed JSON is 400 and a body that is not JSON is 415; neither stores anything", async () => {
    const { apiKey } = await createAccount();
    const malformed = await api("POST", "/providers", {
      key: apiKey,
      rawBody: '{"name": "Alex"',
      headers: { "Content-Type": "application/json" },
    });
    await problem(malformed, 400, "malformed_json");
    const text = await api("POST", "/providers", {
      key: apiKey,
      rawBody: JSON.stringify(providerBody()),
      headers: { "Content-Type": "text/plain" },
    });
    await problem(text, 415, "unsupported_media_type");
    expect(await storedProviders(apiKey)).toBe(0);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing stored", async () => {
    const { apiKey } = await createAccount();
    await createProvider(apiKey);
    await expectUnauthorized(await api("POST", "/providers", { body: providerBody() }), false);
    expect(await storedProviders(apiKey)).toBe(1);
  });

  it("a revoked key: 401, nothing stored", async () => {
    const { apiKey, businessId } = await createAccount();
    await expectUnauthorized(
      await api("POST", "/providers", { key: await revokedKey(businessId), body: providerBody() }),
      true,
    );
    expect(await storedProviders(apiKey)).toBe(0);
  });

  it("a provider belongs to the business that created it: another business neither lists nor reads it", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const provider = await createProvider(owner.apiKey);
    expect(await storedProviders(other.apiKey)).toBe(0);
    await problem(await api("GET", `/providers/${provider.id}`, { key: other.apiKey }), 404, "not_found");
  });

  it("a person's daily limit counts only their own bookings, never another business's", async () => {
    const owner = await createAccount("Owner");
    const other = await createAccount("Other");
    const mine = await createProvider(owner.apiKey, {
      limits: { perDay: 1 },
      timezone: "UTC",
      weeklySchedule: everyDay,
    });
    const theirs = await createProvider(other.apiKey, {
      limits: { perDay: 1 },
      timezone: "UTC",
      weeklySchedule: everyDay,
    });
    const myService = await createService(owner.apiKey, { providerIds: [mine.id] });
    const theirService = await createService(other.apiKey, { providerIds: [theirs.id] });
    expect((await postBooking(other.apiKey, bookingBody(theirService.id, at(3, "09:00")))).status).toBe(201);
    expect((await postBooking(owner.apiKey, bookingBody(myService.id, at(3, "09:00")))).status).toBe(201);
  });
});
