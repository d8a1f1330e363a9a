/** DELETE /providers/{id}/calendars/{calendarId}: disconnects a calendar; its busy times stop counting at once. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { at, bookingBody, postBooking } from "../../support/bookings";
import {
  calendarOperationSecurity,
  connect,
  newCollection,
  putEvent,
  vcalendar,
  vevent,
} from "../../support/connected-calendars";
import { salon } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("answers 204; the calendar is gone and its busy times no longer block", async () => {
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const collection = await newCollection();
    await putEvent(collection, "a", vcalendar(vevent("a", at(3, "10:00"), at(3, "11:00"))));
    const calendar = await connect(s.apiKey, person, { url: collection });
    const busy = await postBooking(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: person }));
    expect(busy.status).toBe(409);
    await busy.body?.cancel();
    const res = await api("DELETE", `/providers/${person}/calendars/${calendar.id}`, { key: s.apiKey });
    expect(res.status).toBe(204);
    await problem(
      await api("GET", `/providers/${person}/calendars/${calendar.id}`, { key: s.apiKey }),
      404,
      "not_found",
    );
    expect((await postBooking(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: person }))).status).toBe(201);
    const audit = await json(await api("GET", `/audit-events?resourceId=${calendar.id}`, { key: s.apiKey }));
    expect(audit.data.map((a: { action: string; actor: { type: string } }) => [a.action, a.actor.type])).toEqual([
      ["calendar.disconnected", "apiKey"],
      ["calendar.connected", "apiKey"],
    ]);
  });
});

describe("error", () => {
  it("answers 404 for an unknown or already disconnected calendar, 422 for an over-long id", async () => {
    const { apiKey } = await createAccount();
    const s = await salon(1);
    const [person] = s.providerIds as [string];
    const calendar = await connect(s.apiKey, person, { url: await newCollection() });
    expect((await api("DELETE", `/providers/${person}/calendars/${calendar.id}`, { key: s.apiKey })).status).toBe(204);
    await problem(
      await api("DELETE", `/providers/${person}/calendars/${calendar.id}`, { key: s.apiKey }),
      404,
      "not_found",
    );
    await problem(
      await api("DELETE", `/providers/${unknownIdLike("prv_x")}/calendars/x`, { key: apiKey }),
      404,
      "not_found",
    );
    await validationError(
      await api("DELETE", `/providers/${person}/calendars/${"c".repeat(65)}`, { key: s.apiKey }),
      "calendarId",
    );
  });
});

describe("security", () => calendarOperationSecurity("DELETE", (p, c) => `/providers/${p}/calendars/${c}`));
