/** What a signed-in member's role lets them do through the API: decided once per operation. */
import { describe, expect, it } from "vitest";
import { memberOf } from "../support/access";
import { api, createAccount, createCustomer, createService, insertBooking, json, origin } from "../support/api";
import { newProvider } from "../support/fixtures";
import { asMember, signIn } from "../support/members";

const unique = (name: string) => `${name}.${crypto.randomUUID().slice(0, 8)}@example.com`;
const start = () => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 14).concat("00:00.000Z");

/** A business with two providers, a booking and a customer of each, and a member of `role`. */
async function business(role: "owner" | "frontdesk" | "staff") {
  const { apiKey, businessId } = await createAccount();
  await memberOf(apiKey, { role: "owner" }, true);
  const mine = await newProvider(apiKey, "Mine");
  const theirs = await newProvider(apiKey, "Theirs");
  const service = await createService(apiKey);
  const myCustomer = await createCustomer(apiKey);
  const theirCustomer = await createCustomer(apiKey);
  const myBooking = await insertBooking(businessId, {
    serviceId: service.id,
    customerId: myCustomer.id,
    startTime: start(),
    providerId: mine,
  });
  const theirBooking = await insertBooking(businessId, {
    serviceId: service.id,
    customerId: theirCustomer.id,
    startTime: start(),
    providerId: theirs,
  });
  const email = unique(role);
  await memberOf(apiKey, { role, email, ...(role === "staff" ? { providerId: mine } : {}) });
  const cookie = await signIn(email);
  return { apiKey, cookie, mine, theirs, myBooking, theirBooking, myCustomer, theirCustomer };
}

describe("staff", () => {
  it("reads their own provider's booking and its customer", async () => {
    const b = await business("staff");
    expect((await asMember("GET", `/bookings/${b.myBooking.id}`, b.cookie)).status).toBe(200);
    expect((await asMember("GET", `/customers/${b.myCustomer.id}`, b.cookie)).status).toBe(200);
    expect((await asMember("GET", `/providers/${b.mine}/bookings`, b.cookie)).status).toBe(200);
  });

  it("another provider's booking or customer is a 404 — read, move, cancel — and nothing changes", async () => {
    const b = await business("staff");
    const id = b.theirBooking.id;
    const read = await asMember("GET", `/bookings/${id}`, b.cookie);
    expect(read.status).toBe(404);
    expect((await json(read)).detail).toBe(`No booking ${id}.`);
    expect((await asMember("POST", `/bookings/${id}/cancel`, b.cookie, {})).status).toBe(404);
    const move = await asMember("POST", `/bookings/${id}/reschedule`, b.cookie, { startTime: start() });
    expect(move.status).toBe(404);
    expect((await asMember("GET", `/customers/${b.theirCustomer.id}`, b.cookie)).status).toBe(404);
    expect((await asMember("GET", `/providers/${b.theirs}/bookings`, b.cookie)).status).toBe(404);
    expect((await json(await api("GET", `/bookings/${id}`, { key: b.apiKey }))).status).toBe("CONFIRMED");
  });

  it("sets their own hours and days off, reads their person and calendars; the change is theirs in the audit", async () => {
    const b = await business("staff");
    const hours = { mon: [{ start: "10:00", end: "14:00" }] };
    const day = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const res = await asMember("PATCH", `/providers/${b.mine}`, b.cookie, {
      weeklySchedule: hours,
      dateOverrides: [{ date: day, intervals: [] }],
    });
    expect(res.status).toBe(200);
    const person = await json(await api("GET", `/providers/${b.mine}`, { key: b.apiKey }));
    expect(person.weeklySchedule.mon).toEqual(hours.mon);
    expect(person.dateOverrides).toEqual([{ date: day, intervals: [] }]);
    expect((await asMember("GET", `/providers/${b.mine}`, b.cookie)).status).toBe(200);
    expect((await asMember("GET", `/providers/${b.mine}/calendars`, b.cookie)).status).toBe(200);
    const audit = await json(await api("GET", `/audit-events?resourceId=${b.mine}`, { key: b.apiKey }));
    expect(audit.data[0]).toMatchObject({ action: "provider.updated", actor: { type: "member" } });
    expect(audit.data[0].fields.sort()).toEqual(["dateOverrides", "weeklySchedule"]);
  });

  it("their own name, services or active flag, and another person's hours or calendars, are refused and nothing changes", async () => {
    const b = await business("staff");
    for (const body of [{ name: "Renamed" }, { active: false }, { weeklySchedule: {}, name: "Renamed" }]) {
      const res = await asMember("PATCH", `/providers/${b.mine}`, b.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect((await json(res)).code).toBe("insufficient_scope");
    }
    const theirs = await asMember("PATCH", `/providers/${b.theirs}`, b.cookie, { weeklySchedule: {} });
    expect(theirs.status).toBe(404);
    expect((await asMember("GET", `/providers/${b.theirs}/calendars`, b.cookie)).status).toBe(404);
    const calendar = { url: "https://calendar.example.com/theirs.ics" };
    expect((await asMember("POST", `/providers/${b.theirs}/calendars`, b.cookie, calendar)).status).toBe(404);
    const mine = await json(await api("GET", `/providers/${b.mine}`, { key: b.apiKey }));
    const other = await json(await api("GET", `/providers/${b.theirs}`, { key: b.apiKey }));
    expect([mine.name, mine.active, other.weeklySchedule.mon]).toEqual(["Mine", true, other.weeklySchedule.mon]);
    expect(Object.keys(other.weeklySchedule).length).toBeGreaterThan(0);
  });

  it("makes and ends their own person's feed (theirs in the audit); another person's is a 404, their feed untouched", async () => {
    const b = await business("staff");
    const made = await asMember("POST", `/providers/${b.mine}/feed`, b.cookie, undefined, { Origin: origin });
    expect(made.status).toBe(201);
    expect(
      (await asMember("DELETE", `/providers/${b.mine}/feed`, b.cookie, undefined, { Origin: origin })).status,
    ).toBe(204);
    const audit = await json(await api("GET", `/audit-events?resourceId=${b.mine}`, { key: b.apiKey }));
    expect(
      audit.data.slice(0, 2).map((a: { action: string; actor: { type: string } }) => [a.action, a.actor.type]),
    ).toEqual([
      ["provider.feed_ended", "member"],
      ["provider.feed_issued", "member"],
    ]);
    const theirs = await json(await api("POST", `/providers/${b.theirs}/feed`, { key: b.apiKey }));
    for (const method of ["POST", "DELETE"]) {
      const res = await asMember(method, `/providers/${b.theirs}/feed`, b.cookie, undefined, { Origin: origin });
      expect(res.status, method).toBe(404);
    }
    expect((await api("GET", theirs.url.slice(`${origin}/api/v1`.length), { key: null })).status).toBe(200);
  });

  it("operations outside their own bookings are refused (403): the list of all bookings, customers, the catalog", async () => {
    const b = await business("staff");
    for (const path of ["/bookings", "/customers", "/services", "/members"]) {
      expect((await asMember("GET", path, b.cookie)).status, path).toBe(403);
    }
  });
});

describe("front desk", () => {
  it("reads bookings and customers, may not erase a customer (403) and the customer stays", async () => {
    const b = await business("frontdesk");
    expect((await asMember("GET", `/bookings/${b.theirBooking.id}`, b.cookie)).status).toBe(200);
    const erase = await asMember("DELETE", `/customers/${b.theirCustomer.id}`, b.cookie);
    expect(erase.status).toBe(403);
    expect((await json(erase)).code).toBe("insufficient_scope");
    expect((await api("GET", `/customers/${b.theirCustomer.id}`, { key: b.apiKey })).status).toBe(200);
  });

  it("may not change the catalog or members (403 insufficient_scope)", async () => {
    const b = await business("frontdesk");
    expect((await asMember("POST", "/services", b.cookie, { name: "X", durationMinutes: 30 })).status).toBe(403);
    expect((await asMember("GET", "/members", b.cookie)).status).toBe(403);
  });
});

describe("another business", () => {
  it("a member of one business reaches nothing of another's: its bookings, customers and members are 404s", async () => {
    const b = await business("owner");
    const other = await business("owner");
    expect((await asMember("GET", `/bookings/${other.myBooking.id}`, b.cookie)).status).toBe(404);
    expect((await asMember("GET", `/customers/${other.myCustomer.id}`, b.cookie)).status).toBe(404);
    expect((await asMember("DELETE", `/customers/${other.myCustomer.id}`, b.cookie)).status).toBe(404);
    const theirMembers = (await json(await api("GET", "/members", { key: other.apiKey }))).data;
    expect((await asMember("GET", `/members/${theirMembers[0].id}`, b.cookie)).status).toBe(404);
  });
});
