/** POST /providers/{id}/calendars/{calendarId}/sync: reads a calendar now; an unchanged one costs one request. */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { ProviderCalendar } from "../../../src/calendar/provider/provider-calendar";
import { api, createAccount, problem, validationError } from "../../support/api";
import { at } from "../../support/bookings";
import {
  calendarOperationSecurity,
  connect,
  newCollection,
  providerStub,
  putEvent,
  syncNow,
  vcalendar,
  vevent,
} from "../../support/connected-calendars";
import { salon } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";
import type { ProviderCalendar as TestProviderCalendar } from "../../support/worker";

describe("happy", () => {
  it("answers the calendar after the read; an unchanged calendar costs its server one request", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    for (let i = 0; i < 3; i++)
      await putEvent(collection, `e${i}`, vcalendar(vevent(`e${i}`, at(3, "10:00"), at(3, "10:30"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    const requests: string[] = [];
    await runInDurableObject(providerStub(s.businessId, person), (instance: ProviderCalendar) => {
      (instance as TestProviderCalendar).faults.caldav = (request, real) => {
        requests.push(request.method);
        return real(request);
      };
    });
    const read = await syncNow(s.apiKey, person, calendar.id);
    expect(read.syncStatus).toBe("ok");
    expect(Date.parse(read.lastSyncedAt)).toBeGreaterThan(Date.parse(calendar.lastSyncedAt));
    const counted = await runInDurableObject(providerStub(s.businessId, person), (instance: ProviderCalendar) =>
      (instance as TestProviderCalendar).faults.caldav ? requests.slice() : [],
    );
    expect(counted).toEqual(["PROPFIND"]);
    // Changed: the marker moves, the window is listed and only the new event fetched.
    await putEvent(collection, "new", vcalendar(vevent("new", at(4, "10:00"), at(4, "10:30"))));
    requests.length = 0;
    await syncNow(s.apiKey, person, calendar.id);
    expect(requests).toEqual(["PROPFIND", "REPORT", "REPORT"]);
  });
});

describe("error", () => {
  it("answers 404 for an unknown calendar or provider, 422 for an over-long id", async () => {
    const { apiKey } = await createAccount();
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    await problem(
      await api("POST", `/providers/${person}/calendars/${unknownIdLike("cal_x")}/sync`, { key: s.apiKey }),
      404,
      "not_found",
    );
    await problem(
      await api("POST", `/providers/${unknownIdLike("prv_x")}/calendars/x/sync`, { key: apiKey }),
      404,
      "not_found",
    );
    await validationError(
      await api("POST", `/providers/${person}/calendars/${"c".repeat(65)}/sync`, { key: s.apiKey }),
      "calendarId",
    );
  });
});

describe("security", () => calendarOperationSecurity("POST", (p, c) => `/providers/${p}/calendars/${c}/sync`));
