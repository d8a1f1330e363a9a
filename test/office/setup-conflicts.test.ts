/**
 * What the person's page says of a change of hours, seen through: a staff member closing the day of
 * one of their bookings from the office keeps the booking and marks it (`time_off`), as the API's
 * own change would, and the office's booking page says so.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, json } from "../support/api";
import { dayOf } from "../support/bookings";
import { providerStub } from "../support/connected-calendars";
import { eventually } from "../support/eventually";
import { office } from "../support/members";
import { deskMember, deskSalon, page } from "../support/office";

describe("a day off over a booking, set in the office", () => {
  it("keeps the booking and marks it as a conflict, on the API and the booking's page", async () => {
    const s = await deskSalon();
    const person = s.providerIds[0] as string;
    const staff = await deskMember(s, "staff");
    const res = await office("POST", `/office/setup/people/${person}/days-off`, {
      cookie: staff.cookie,
      form: { date: dayOf(2), hours: "" },
    });
    expect(res.status).toBe(303);
    await runDurableObjectAlarm(providerStub(s.businessId, person));
    const kinds = async () =>
      ((await json(await api("GET", `/bookings/${s.mine.id}`, { key: s.apiKey }))).conflicts as { kind: string }[]).map(
        (c) => c.kind,
      );
    await eventually(async () => ((await kinds()).length ? true : undefined), "the booking marked");
    expect(await kinds()).toEqual(["time_off"]);
    const booking = await json(await api("GET", `/bookings/${s.mine.id}`, { key: s.apiKey }));
    expect(booking.status).toBe("CONFIRMED");
    const shown = await page(`/office/bookings/${s.mine.id}`, staff.cookie);
    expect(shown.html).toContain("Conflict");
    expect(shown.html).toContain("during time off");
  });
});
