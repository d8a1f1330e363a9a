/** POST /resources: a room, chair or machine with identical units; its calendar is set up before the answer. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resourceCalendarOf } from "../../../src/calendar/stubs";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { everyDay, resourceBody } from "../../support/fixtures";
import { expectUnauthorized, revokedKey } from "../../support/security";

const resourceFields = [
  "active",
  "createdAt",
  "dateOverrides",
  "id",
  "name",
  "quantity",
  "timezone",
  "updatedAt",
  "weeklySchedule",
];

describe("happy", () => {
  it("creates a resource with defaults, Location, ETag and the public shape", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/resources", { key: apiKey, body: resourceBody() });
    expect(res.status).toBe(201);
    const resource = await json(res);
    expect(Object.keys(resource).sort()).toEqual(resourceFields);
    expect(resource).toMatchObject({
      name: "Treatment room",
      quantity: 1,
      timezone: "UTC",
      weeklySchedule: null,
      dateOverrides: [],
      active: true,
    });
    expect(resource.id).toMatch(/^res_[0-9a-z]{26}$/);
    expect(res.headers.get("Location")).toBe(`/api/v1/resources/${resource.id}`);
    expect(res.headers.get("ETag")).toBe('"v1"');
  });

  it("keeps own hours and units, and has set up its calendar before answering", async () => {
    const { apiKey, businessId } = await createAccount();
    const body = resourceBody({ quantity: 3, weeklySchedule: everyDay, timezone: "Europe/Berlin" });
    const resource = await json(await api("POST", "/resources", { key: apiKey, body }));
    expect(resource).toMatchObject({ quantity: 3, weeklySchedule: everyDay, timezone: "Europe/Berlin" });
    const { settings } = await resourceCalendarOf(env, businessId, resource.id).snapshot();
    expect(settings).toMatchObject({ version: 1, quantity: 3, active: true, timezone: "Europe/Berlin" });
  });
});

describe("error", () => {
  it.each([
    ["no name", { timezone: "UTC" }, "name"],
    ["quantity 0", resourceBody({ quantity: 0 }), "quantity"],
    ["quantity 1001", resourceBody({ quantity: 1001 }), "quantity"],
    ["a fractional quantity", resourceBody({ quantity: 1.5 }), "quantity"],
    ["an unknown time zone", resourceBody({ timezone: "Mars/Olympus" }), "timezone"],
    ["an unknown field", resourceBody({ version: 3 }), "version"],
    [
      "a bad schedule",
      resourceBody({ weeklySchedule: { mon: [{ start: "17:00", end: "09:00" }] } }),
      "weeklySchedule.mon.0.end",
    ],
  ] as [string, Record<string, unknown>, string][])("rejects %s with 422", async (_, body, path) => {
    const { apiKey } = await createAccount();
    await validationError(await api("POST", "/resources", { key: apiKey, body }), path);
    expect((await json(await api("GET", "/resources", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("a body that is not JSON is 400", async () => {
    const { apiKey } = await createAccount();
    const res = await api("POST", "/resources", {
      key: apiKey,
      rawBody: "{",
      headers: { "Content-Type": "application/json" },
    });
    await problem(res, 400, "malformed_json");
  });
});

describe("security", () => {
  it("without an API key: 401, nothing created", async () => {
    await expectUnauthorized(await api("POST", "/resources", { body: resourceBody() }), false);
  });

  it("a revoked key: 401, nothing created", async () => {
    const { apiKey, businessId } = await createAccount();
    await expectUnauthorized(
      await api("POST", "/resources", { key: await revokedKey(businessId), body: resourceBody() }),
      true,
    );
    expect((await json(await api("GET", "/resources", { key: apiKey }))).pagination.total).toBe(0);
  });

  it("a resource belongs to the business that created it only", async () => {
    const owner = await createAccount();
    const other = await createAccount();
    await api("POST", "/resources", { key: owner.apiKey, body: resourceBody() });
    expect((await json(await api("GET", "/resources", { key: other.apiKey }))).data).toEqual([]);
  });
});
