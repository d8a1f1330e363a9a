/** POST /providers/{id}/feed: issues a person's calendar feed address, and rotates it (each in the audit). */
import { describe, expect, it } from "vitest";
import { api, createAccount, json, problem, validationError } from "../../support/api";
import { at, book, bookingBody } from "../../support/bookings";
import { eventsOf, feedOperationSecurity, issueFeed, readFeed } from "../../support/feeds";
import { createProvider, salon } from "../../support/fixtures";
import { unknownIdLike } from "../../support/security";

describe("happy", () => {
  it("answers 201 with a secret .ics address that a calendar app can read without a key", async () => {
    const s = await salon(2);
    const [mine, theirs] = s.providerIds as [string, string];
    const booked = await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: mine }));
    await book(s.apiKey, bookingBody(s.cut, at(3, "10:00"), { providerId: theirs }));
    const feed = await issueFeed(s.apiKey, mine);
    const { events, name } = await eventsOf(await readFeed(feed.path));
    expect(name).toBe("Stylist 0");
    expect(events).toEqual([
      { uid: booked.id, summary: "Cut — Ada", start: booked.startTime, end: booked.endTime, status: "CONFIRMED" },
    ]);
  });

  it("a second POST rotates the address: the old one is a 404 at once, the new one works", async () => {
    const { apiKey } = await createAccount();
    const provider = await createProvider(apiKey);
    const first = await issueFeed(apiKey, provider.id);
    const second = await issueFeed(apiKey, provider.id);
    expect(second.url).not.toBe(first.url);
    await problem(await readFeed(first.path), 404, "not_found");
    expect((await readFeed(second.path)).status).toBe(200);
    const audit = await json(await api("GET", `/audit-events?resourceId=${provider.id}`, { key: apiKey }));
    const issued = audit.data.filter((a: { action: string }) => a.action === "provider.feed_issued");
    expect(issued).toHaveLength(2);
    expect(issued[0]).toMatchObject({ actor: { type: "apiKey" }, resource: { type: "provider", id: provider.id } });
  });
});

describe("error", () => {
  it("answers 404 for an unknown provider and 422 for an over-long id", async () => {
    const { apiKey } = await createAccount();
    await problem(await api("POST", `/providers/${unknownIdLike("prv_x")}/feed`, { key: apiKey }), 404, "not_found");
    await validationError(await api("POST", `/providers/${"p".repeat(65)}/feed`, { key: apiKey }), "id");
  });
});

describe("security", () => feedOperationSecurity("POST"));
