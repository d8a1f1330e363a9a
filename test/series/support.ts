/** Shared fixtures of the series tests (not a test file): a physio clinic and helpers to book series. */
import { freshEmail, plus } from "../bookings/support";
import { api, createAccount, createService, json, type TestAccount } from "../helpers";
import { newProvider } from "../support/fixtures";

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
