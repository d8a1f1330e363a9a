/** GET /providers/{id}/calendars/{calendarId}: one of a person's own calendars and its sync state. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { calendarOperationSecurity, connect, newCollection } from "../../support/connected-calendars";
import { createProvider } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("answers the calendar as connecting it answered", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const calendar = await connect(apiKey, provider.id, { url: await newCollection() });
    const res = await api("GET", `/providers/${provider.id}/calendars/${calendar.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual(calendar);
  });
});

describe("error", () => {
  it("answers 404 for an unknown calendar or provider, 422 for an over-long id", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    await problem(
      await api("GET", `/providers/${provider.id}/calendars/${unknownIdLike("cal_x")}`, { key: apiKey }),
      404,
      "not_found",
    );
    await problem(
      await api("GET", `/providers/${unknownIdLike("prv_x")}/calendars/${unknownIdLike("cal_x")}`, { key: apiKey }),
      404,
      "not_found",
    );
    await validationError(
      await api("GET", `/providers/${provider.id}/calendars/${"c".repeat(65)}`, { key: apiKey }),
      "calendarId",
    );
  });
});

describe("security", () => calendarOperationSecurity("GET", (p, c) => `/providers/${p}/calendars/${c}`));
