/** GET /providers/{id}/calendars: a person's own calendars, oldest first. */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { calendarOperationSecurity, connect, localApi, newCollection } from "../../support/connected-calendars";
import { createProvider } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("lists every calendar of the person, oldest first; none is an empty list", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const other = await createProvider(apiKey);
    expect(await json(await api("GET", `/providers/${provider.id}/calendars`, { key: apiKey }))).toEqual({ data: [] });
    const first = await connect(apiKey, provider.id, { url: await newCollection() });
    const second = await connect(apiKey, provider.id, { url: await newCollection(), writeBookings: true });
    await connect(apiKey, other.id, { url: await newCollection() });
    const res = await localApi("GET", `/providers/${provider.id}/calendars`, apiKey);
    expect(res.status).toBe(200);
    const { data } = await json(res);
    expect(data.map((c: { id: string }) => c.id)).toEqual([first.id, second.id]);
    expect(data[1]).toMatchObject({ writeBookings: true, providerId: provider.id });
  });
});

describe("error", () => {
  it("answers 404 for an unknown provider and 422 for an over-long id", async () => {
    const { apiKey } = await createAccount();
    await problem(
      await api("GET", `/providers/${unknownIdLike("prv_x")}/calendars`, { key: apiKey }),
      404,
      "not_found",
    );
    await validationError(await api("GET", `/providers/${"p".repeat(65)}/calendars`, { key: apiKey }), "id");
  });
});

describe("security", () => calendarOperationSecurity("GET", (p) => `/providers/${p}/calendars`));
