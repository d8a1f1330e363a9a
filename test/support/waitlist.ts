/** Shared fixtures of the waitlist tests (not a test file): a full slot and helpers to queue for it. */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { api, createAccount, createService, json, type TestAccount } from "./api";
import { at, book, bookingBody, calendarStub, freshEmail, plus } from "./bookings";

export type FullSlot = TestAccount & { serviceId: string; start: string; bookings: { id: string }[] };

/** A service of `capacity` seats whose slot at day 2, 10:00 is fully booked. */
export async function fullSlot(capacity = 1, start = at(2, "10:00")): Promise<FullSlot> {
  const account = await createAccount("Popular clinic");
  const service = await createService(account.apiKey, { name: "Popular", capacity });
  const bookings = [];
  for (let i = 0; i < capacity; i++) bookings.push(await book(account.apiKey, bookingBody(service.id, start)));
  return { ...account, serviceId: service.id, start, bookings };
}

/** A join body for the slot; `overrides` win. */
export const joinBody = (s: { serviceId: string; start: string }, overrides: Record<string, unknown> = {}) => ({
  serviceId: s.serviceId,
  startTime: s.start,
  endTime: plus(s.start, 30),
  customerName: "Rosa Parks",
  customerEmail: freshEmail(),
  ...overrides,
});

/** Queues for the slot (must succeed); answers the entry. */
export async function join(key: string, body: unknown) {
  const res = await api("POST", "/waitlist", { key, body });
  if (res.status !== 201) throw new Error(`join failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** The entry as the API shows it. */
export const entry = async (key: string, id: string) => json(await api("GET", `/waitlist/${id}`, { key }));

/** Makes the calendar's live holds expire now and runs its alarm (no request arrives). */
export async function expireHoldsNow(businessId: string, serviceId: string) {
  const stub = calendarStub(businessId, serviceId);
  await runInDurableObject(stub, (_i, state) => {
    state.storage.sql.exec("UPDATE bookings SET expires_ms = 1 WHERE kind = 'hold'");
    state.storage.sql.exec("UPDATE holds SET expires_ms = 1 WHERE status = 'HELD'");
  });
  await runDurableObjectAlarm(stub);
}
