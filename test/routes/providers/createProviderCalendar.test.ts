/** POST /providers/{id}/calendars: connects one of a person's own calendars (CalDAV) and reads it first. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { at } from "../../support/bookings";
import {
  caldavBase,
  calendarOperationSecurity,
  connect,
  localApi,
  newCollection,
  putEvent,
  vcalendar,
  vevent,
} from "../../support/connected-calendars";
import { createProvider } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("answers 201 after the first read, with Location, and never the credentials", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const collection = await newCollection();
    await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "11:00"))));
    const res = await localApi("POST", `/providers/${provider.id}/calendars`, apiKey, {
      url: collection,
      username: "stylist",
      password: "app-password-123",
    });
    expect(res.status).toBe(201);
    const text = await res.clone().text();
    expect(text).not.toContain("app-password-123");
    expect(text).not.toContain('stylist"');
    const body = await json(res);
    expect(body).toMatchObject({
      providerId: provider.id,
      type: "caldav",
      url: collection,
      writeBookings: false,
      hasCredentials: true,
      syncStatus: "ok",
      lastError: null,
      failingSince: null,
      eventsSkipped: 0,
    });
    expect(body.id).toMatch(/^cal_[0-9a-z]{26}$/);
    expect(Date.parse(body.busyUntil) - Date.now()).toBeGreaterThan(730 * 86_400_000);
    expect(res.headers.get("Location")).toBe(`/api/v1/providers/${provider.id}/calendars/${body.id}`);
  });

  it("a calendar whose first read fails is kept, answered failing with the error", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const calendar = await connect(apiKey, provider.id, { url: "http://127.0.0.1:9/calendar/" });
    expect(calendar).toMatchObject({ syncStatus: "failing", lastSyncedAt: null, busyUntil: null });
    expect(calendar.lastError).toMatch(/could not be reached/);
  });
});

describe("error", () => {
  it("refuses URLs webhooks would refuse, and loopback outside a development server: 422 at url", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    for (const url of [
      "http://calendar.example.com/dav/",
      "https://user:secret@calendar.example.com/dav/",
      "https://10.0.0.7/dav/",
      "https://calendar.local/dav/",
      "https://calendar.example.com:8443/dav/",
      "not a url",
    ]) {
      await validationError(
        await api("POST", `/providers/${provider.id}/calendars`, { key: apiKey, body: { url } }),
        "url",
      );
    }
    // Production (no WEBHOOKS_ALLOW_LOCAL): a calendar on this machine is refused too.
    await validationError(
      await api("POST", `/providers/${provider.id}/calendars`, {
        key: apiKey,
        body: { url: `${caldavBase()}/user/calendars/x/` },
      }),
      "url",
    );
  });

  it("a private, loopback or link-local address is refused as one, not as a plain-http URL, on a development server too", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    for (const url of [
      "http://0.0.0.0:5232/dav/",
      "http://127.0.0.2/dav/",
      "http://169.254.169.254/latest/",
      "http://10.1.2.3/dav/",
      "https://192.168.1.10/dav/",
      "http://[fe80::1]/dav/",
      "http://[::ffff:10.0.0.1]/dav/",
    ]) {
      const error = await validationError(
        await localApi("POST", `/providers/${provider.id}/calendars`, apiKey, { url }),
        "url",
      );
      expect(error.message, url).toMatch(/private, loopback or link-local address.*not allowed/);
      expect(error.message, url).not.toMatch(/https:\/\//);
    }
    const { data } = await json(await api("GET", `/providers/${provider.id}/calendars`, { key: apiKey }));
    expect(data).toEqual([]);
  });

  it("answers 404 for an unknown provider, 422 for unknown or wrong fields", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const url = "https://calendar.example.invalid/dav/cal/";
    await problem(
      await api("POST", `/providers/${unknownIdLike("prv_x")}/calendars`, { key: apiKey, body: { url } }),
      404,
      "not_found",
    );
    await validationError(
      await api("POST", `/providers/${provider.id}/calendars`, { key: apiKey, body: { url, extra: 1 } }),
      "extra",
    );
    await validationError(
      await api("POST", `/providers/${provider.id}/calendars`, { key: apiKey, body: { url, writeBookings: "yes" } }),
      "writeBookings",
    );
    await validationError(
      await api("POST", `/providers/${provider.id}/calendars`, { key: apiKey, body: { url, password: "" } }),
      "password",
    );
  });
});

describe("security", () =>
  calendarOperationSecurity("POST", (p) => `/providers/${p}/calendars`, {
    url: "https://calendar.example.invalid/dav/cal/",
  }));
