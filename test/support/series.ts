/**
 * Shared fixtures of the series tests (not a test file): a physio clinic, a crew of 50 people and
 * 5 rooms, and helpers to book series.
 */

import { api, createAccount, createService, json, type TestAccount } from "./api";
import { freshEmail, plus } from "./bookings";
import { createResource, everyDay, newProvider } from "./fixtures";

export type Clinic = TestAccount & { physio: string; therapist: string; open: string };

/** A clinic: physiotherapy (30 min, Berlin, 09:00–17:00 every day) by one therapist, and a service without providers. */
export async function clinic(): Promise<Clinic> {
  const account = await createAccount("Physio clinic");
  const therapist = await newProvider(account.apiKey, "Therapist");
  const physio = await createService(account.apiKey, { name: "Physiotherapy", providerIds: [therapist] });
  const open = await createService(account.apiKey, { name: "Open clinic" });
  return { ...account, therapist, physio: physio.id, open: open.id };
}

/** A series body: 30 minutes from `startTime` on `recurrence`; `overrides` win. */
export const seriesBody = (
  serviceId: string,
  startTime: string,
  recurrence: string,
  overrides: Record<string, unknown> = {},
) => ({
  serviceId,
  customerName: "Frida Kahlo",
  customerEmail: freshEmail(),
  startTime,
  endTime: plus(startTime, 30),
  recurrence,
  ...overrides,
});

/** POST /series with an optional Idempotency-Key. */
export const postSeries = (key: string, body: unknown, idempotencyKey?: string) =>
  api("POST", "/series", {
    key,
    body,
    headers: idempotencyKey === undefined ? undefined : { "Idempotency-Key": idempotencyKey },
  });

/** Books a series that must succeed and returns its JSON. */
export async function bookSeries(key: string, body: unknown) {
  const res = await postSeries(key, body);
  if (res.status !== 201) throw new Error(`series create failed: ${res.status} ${await res.text()}`);
  return json(res);
}

/** The instant `weeks` weeks after `iso`, formatted like `at`. */
export const weeksAfter = (iso: string, weeks: number) => plus(iso, weeks * 7 * 24 * 60);

/** The widest staffing a service may have: 50 providers and 5 rooms. */
export type Crew = TestAccount & { service: string; people: string[]; rooms: string[]; closed: string };

/**
 * A business whose one service (30 minutes, 09:00–17:00 UTC every day, booked up to 400 days
 * ahead) is performed by any of 50 providers (09:00–17:00 UTC every day) and needs 5 rooms; the
 * last room opens only 09:00–12:00, so from 12:00 every booking is refused by it, whoever
 * performs it. `closedOn` also closes that room all day on these dates (YYYY-MM-DD), instead.
 */
export async function crew(closedOn: string[] = []): Promise<Crew> {
  const account = await createAccount("Crew");
  const people: string[] = [];
  for (let i = 0; i < 50; i += 10)
    people.push(
      ...(await Promise.all(Array.from({ length: 10 }, (_, j) => newProvider(account.apiKey, `Crew ${i + j}`)))),
    );
  const rooms: string[] = [];
  for (let i = 0; i < 4; i++) rooms.push((await createResource(account.apiKey, { name: `Bay ${i}` })).id as string);
  const morning = [{ start: "09:00", end: "12:00" }];
  const hours =
    closedOn.length > 0
      ? { weeklySchedule: everyDay, dateOverrides: closedOn.map((date) => ({ date, intervals: [] })) }
      : { weeklySchedule: Object.fromEntries(Object.keys(everyDay).map((d) => [d, morning])) };
  const closed = (await createResource(account.apiKey, { name: "Bay 4", ...hours })).id as string;
  rooms.push(closed);
  // Given its people by PATCH: POST /services answers 500 with more than 33 providers (one insert
  // of every link row passes D1's limit of 100 bound parameters).
  const service = await createService(account.apiKey, { name: "Crew job", resourceIds: rooms, maxAdvanceDays: 400 });
  const assignees = await api("PATCH", `/services/${service.id}`, {
    key: account.apiKey,
    body: { providerIds: people },
  });
  if (assignees.status !== 200)
    throw new Error(`PATCH /services failed: ${assignees.status} ${await assignees.text()}`);
  return { ...account, service: service.id as string, people, rooms, closed };
}
