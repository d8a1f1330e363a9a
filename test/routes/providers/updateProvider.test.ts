/**
 * PATCH /providers/{id}: given fields replace the stored ones. The ETag is the version, which
 * only grows; once the PATCH answered, no booking is decided against the old settings.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { providerCalendarOf } from "../../../src/calendar/stubs";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { at, bookingBody, postBooking } from "../../support/bookings";
import { createProvider, salon } from "../../support/fixtures";
import { expectNotFoundLikeUnknown, expectUnauthorized, revokedKey, unknownIdLike } from "../../support/security";

const patchProvider = (key: string, id: string, body: unknown, headers?: Record<string, string>) =>
  api("PATCH", `/providers/${id}`, { key, body, headers });

describe("happy", () => {
  it("replaces the whole override list and keeps the fields not sent", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey, {
      email: "alex@example.com",
      dateOverrides: [
        { date: "2026-12-24", intervals: [{ start: "09:00", end: "13:00" }] },
        { date: "2026-12-25", intervals: [] },
      ],
    });
    const replaced = [{ date: "2026-12-31", intervals: [] }];
    const res = await patchProvider(apiKey, provider.id, { dateOverrides: replaced });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ dateOverrides: replaced, email: "alex@example.com" });
  });

  it("bumps the version ETag, honours If-Match and If-None-Match", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const path = `/providers/${provider.id}`;
    expect((await api("GET", path, { key: apiKey, headers: { "If-None-Match": '"v1"' } })).status).toBe(304);
    const patched = await patchProvider(apiKey, provider.id, { name: "Alex M." }, { "If-Match": '"v1"' });
    expect(patched.status).toBe(200);
    expect(patched.headers.get("ETag")).toBe('"v2"');
    const stale = await patchProvider(apiKey, provider.id, { name: "Lost" }, { "If-Match": '"v1"' });
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
        patchProvider(apiKey, provider.id, { name: `N${i}` }, { "If-Match": '"v1"' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
  });

  it("has pushed the settings to the provider calendar before answering", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    const calendar = providerCalendarOf(env, businessId, provider.id);
    await patchProvider(apiKey, provider.id, { active: false, timezone: "Asia/Tokyo" });
    expect((await calendar.snapshot()).settings).toMatchObject({ version: 2, active: false, timezone: "Asia/Tokyo" });
  });

  it("a daily limit set below the day's bookings keeps them and refuses the next; {} lifts it", async () => {
    const s = await salon(1);
    const [provider] = s.providerIds as [string];
    const kept = [];
    for (const time of ["10:00", "11:00"]) {
      kept.push(await json(await postBooking(s.apiKey, bookingBody(s.cut, at(3, time), { providerId: provider }))));
    }
    const limited = await patchProvider(s.apiKey, provider, { limits: { perDay: 1 } });
    expect(await json(limited)).toMatchObject({ limits: { perDay: 1 } });
    for (const booking of kept) {
      expect((await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }))).status).toBe("CONFIRMED");
    }
    // Across services: the colour service is refused too, and the next day is not.
    const refused = await postBooking(s.apiKey, bookingBody(s.colour, at(3, "13:00"), { providerId: provider }));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("limit_reached");
    expect((await postBooking(s.apiKey, bookingBody(s.colour, at(4, "13:00")))).status).toBe(201);
    expect(await json(await patchProvider(s.apiKey, provider, { limits: {} }))).toMatchObject({
      limits: { perDay: null },
    });
    expect((await postBooking(s.apiKey, bookingBody(s.colour, at(3, "13:00")))).status).toBe(201);
  });

  it("a provider set inactive takes no new booking from then on; existing bookings stay", async () => {
    const s = await salon(1);
    const [provider] = s.providerIds as [string];
    const kept = await postBooking(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: provider }));
    expect(kept.status).toBe(201);
    expect((await patchProvider(s.apiKey, provider, { active: false })).status).toBe(200);
    const refused = await postBooking(s.apiKey, bookingBody(s.cut, at(3, "11:00"), { providerId: provider }));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("provider_unavailable");
    const booking = await json(kept);
    expect((await json(await api("GET", `/bookings/${booking.id}`, { key: s.apiKey }))).status).toBe("CONFIRMED");
  });
});

describe("error", () => {
  it.each([
    ["an empty body", {}, "(root)"],
    ["a null name", { name: null }, "name"],
    ["an unknown field", { version: 7 }, "version"],
    ["a bad override", { dateOverrides: [{ date: "24.12.2026", intervals: [] }] }, "dateOverrides.0.date"],
    ["limits.perDay 0", { limits: { perDay: 0 } }, "limits.perDay"],
    ["a negative limits.perDay", { limits: { perDay: -1 } }, "limits.perDay"],
    ["a fractional limits.perDay", { limits: { perDay: 3.3 } }, "limits.perDay"],
    ['limits.perDay "1"', { limits: { perDay: "1" } }, "limits.perDay"],
    ["a huge limits.perDay", { limits: { perDay: 10 ** 20 } }, "limits.perDay"],
    ["limits as a list", { limits: [1] }, "limits"],
  ] as [string, Record<string, unknown>, string][])(
    "rejects %s with 422 and changes nothing",
    async (_, body, path) => {
      const { apiKey } = await createAccount();
      const provider = await createProvider(apiKey);
      await validationError(await patchProvider(apiKey, provider.id, body), path);
      const after = await api("GET", `/providers/${provider.id}`, { key: apiKey });
      expect(after.headers.get("ETag")).toBe('"v1"');
      expect(await json(after)).toEqual(provider);
    },
  );

  it("an unknown id is 404 not_found", async () => {
    const { apiKey } = await createAccount();
    await problem(await patchProvider(apiKey, "prv_unknown", { name: "x" }), 404, "not_found");
  });

  it("a body that is not JSON is 415 and changes nothing", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const res = await api("PATCH", `/providers/${provider.id}`, {
      key: apiKey,
      rawBody: JSON.stringify({ name: "Plain" }),
      headers: { "Content-Type": "text/plain" },
    });
    await problem(res, 415, "unsupported_media_type");
    expect(await json(await api("GET", `/providers/${provider.id}`, { key: apiKey }))).toEqual(provider);
  });
});

describe("security", () => {
  it("without an API key: 401 with the Bearer challenge, nothing changed", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    await expectUnauthorized(await api("PATCH", `/providers/${provider.id}`, { body: { name: "Hijacked" } }), false);
    expect(await json(await api("GET", `/providers/${provider.id}`, { key: apiKey }))).toEqual(provider);
  });

  it("a revoked key: 401, nothing changed", async () => {
    const { apiKey, businessId } = await createAccount();
    const provider = await createProvider(apiKey);
    await expectUnauthorized(
      await patchProvider(await revokedKey(businessId), provider.id, { name: "Hijacked" }),
      true,
    );
    expect(await json(await api("GET", `/providers/${provider.id}`, { key: apiKey }))).toEqual(provider);
  });

  it("another business cannot lift a person's daily limit: a 404, and the limit still refuses", async () => {
    const owner = await salon(1);
    const other = await createAccount("Other");
    const [provider] = owner.providerIds as [string];
    await patchProvider(owner.apiKey, provider, { limits: { perDay: 1 } });
    await problem(await patchProvider(other.apiKey, provider, { limits: {} }), 404, "not_found");
    expect((await postBooking(owner.apiKey, bookingBody(owner.cut, at(3, "10:00")))).status).toBe(201);
    const refused = await postBooking(owner.apiKey, bookingBody(owner.cut, at(3, "12:00")));
    expect((await problem(refused, 409, "slot_unavailable")).reason).toBe("limit_reached");
  });

  it("another business gets the 404 of an unknown id and changes nothing", async () => {
    const owner = await createAccount("Owner Salon");
    const other = await createAccount("Other");
    const provider = await createProvider(owner.apiKey);
    const unknownId = unknownIdLike(provider.id);
    await expectNotFoundLikeUnknown(
      await patchProvider(other.apiKey, provider.id, { name: "Hijacked" }),
      provider.id,
      await patchProvider(other.apiKey, unknownId, { name: "Hijacked" }),
      unknownId,
      ["Owner Salon", "Alex Morgan", owner.businessId],
    );
    const after = await api("GET", `/providers/${provider.id}`, { key: owner.apiKey });
    expect(after.headers.get("ETag")).toBe('"v1"');
    expect((await json(after)).name).toBe("Alex Morgan");
  });
});
