/**
 * A person's or a room's calendar that cannot take new settings when a PATCH is answered: the
 * change is stored, the client gets a 503 with `Retry-After` (docs/consistency.md, "The claimed calendars"),
 * and the same request again pushes it, so the calendar decides with the settings the API shows.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { claimedCalendarOf } from "../../src/calendar/stubs";
import { api, createAccount, json, problem } from "../support/api";
import { createResource, newProvider } from "../support/fixtures";
import type { ProviderCalendar as FaultyProvider, ResourceCalendar as FaultyResource } from "../support/worker";

type Kind = "provider" | "resource";

/** A provider or a resource of a new business, and the PATCH that changes its hours. */
async function subject(kind: Kind) {
  const account = await createAccount(`Configure ${kind}`);
  const id =
    kind === "provider"
      ? await newProvider(account.apiKey, "Hygienist")
      : ((await createResource(account.apiKey, { name: "Chair" })).id as string);
  const path = `/${kind === "provider" ? "providers" : "resources"}/${id}`;
  const calendar = claimedCalendarOf(env, account.businessId, { calendar: kind, id });
  return { ...account, id, path, calendar };
}

const mondays = { weeklySchedule: { mon: [{ start: "10:00", end: "12:00" }] } };

async function failConfigure(stub: ReturnType<typeof claimedCalendarOf>, fail: boolean) {
  await runInDurableObject(stub, (instance) => {
    (instance as unknown as FaultyProvider | FaultyResource).faults.configure = fail ? "fail" : undefined;
  });
}

const heldVersion = async (stub: ReturnType<typeof claimedCalendarOf>) => (await stub.snapshot()).settings?.version;

describe.each(["provider", "resource"] as const)("a %s calendar that cannot take new settings", (kind) => {
  it("answers 503 with Retry-After, keeps the change stored, and the retry pushes it", async () => {
    const s = await subject(kind);
    const before = await heldVersion(s.calendar);
    await failConfigure(s.calendar, true);

    const failed = await api("PATCH", s.path, { key: s.apiKey, body: mondays });
    expect(failed.headers.get("Retry-After")).toBe("1");
    const body = await problem(failed, 503, "unavailable");
    expect(body.detail).toContain(`The ${kind} was saved`);
    expect(JSON.stringify(body)).not.toMatch(/injected|stack/i);

    const stored = await json(await api("GET", s.path, { key: s.apiKey }));
    expect(stored.weeklySchedule).toEqual(mondays.weeklySchedule);
    expect(await heldVersion(s.calendar)).toBe(before);

    await failConfigure(s.calendar, false);
    const retried = await api("PATCH", s.path, { key: s.apiKey, body: mondays });
    expect(retried.status).toBe(200);
    expect(retried.headers.get("ETag")).toBe(`"v${await heldVersion(s.calendar)}"`);
    expect(await heldVersion(s.calendar)).toBeGreaterThan(before ?? 0);
  });
});
