/**
 * Shared fixtures of the visit tests (not a test file): a spa whose cut (30 min, 10 min buffer
 * after) and colour (60 min, 10 min buffer before) are performed by the same two stylists, a
 * massage in a one-unit room with no providers, and helpers to book and read visits.
 */

import { api, createAccount, createService, json, type TestAccount } from "./api";
import { freshEmail } from "./bookings";
import { createResource, newProvider } from "./fixtures";

export type Spa = TestAccount & { stylists: string[]; cut: string; colour: string; massage: string; room: string };

/** The spa (see the module comment). */
export async function spa(): Promise<Spa> {
  const account = await createAccount("Spa");
  const stylists = [await newProvider(account.apiKey, "Stylist A"), await newProvider(account.apiKey, "Stylist B")];
  const room = (await createResource(account.apiKey, { name: "Massage room" })).id as string;
  const cut = await createService(account.apiKey, { name: "Cut", providerIds: stylists, bufferAfterMinutes: 10 });
  const colour = await createService(account.apiKey, {
    name: "Colour",
    durationMinutes: 60,
    providerIds: stylists,
    bufferBeforeMinutes: 10,
  });
  const massage = await createService(account.apiKey, { name: "Massage", durationMinutes: 60, resourceIds: [room] });
  return { ...account, stylists, room, cut: cut.id, colour: colour.id, massage: massage.id };
}

/** A visit body starting at `startTime` with these segments; `overrides` win. */
export const visitBody = (
  startTime: string,
  segments: { serviceId: string; providerId?: string }[],
  overrides: Record<string, unknown> = {},
) => ({ customerName: "Grace Hopper", customerEmail: freshEmail(), startTime, segments, ...overrides });

/** POST /appointments with an optional Idempotency-Key. */
export const postVisit = (key: string, body: unknown, idempotencyKey?: string) =>
  api("POST", "/appointments", {
    key,
    body,
    headers: idempotencyKey === undefined ? undefined : { "Idempotency-Key": idempotencyKey },
  });

/** Books a visit that must succeed and returns its JSON. */
export async function bookVisit(key: string, body: unknown) {
  const res = await postVisit(key, body);
  if (res.status !== 201) throw new Error(`visit create failed: ${res.status} ${await res.text()}`);
  return json(res);
}
