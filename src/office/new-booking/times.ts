/**
 * The phone-in's free times, as the API answers them (`GET /services/{id}/availability`, its
 * bookable slots): one service's for a booking; for a visit, the first service's slots at which
 * every later service, back to back, is a bookable slot of its own availability too.
 *
 * The API has no availability of a visit: `POST /appointments` takes a start that is a slot of the
 * first service and checks the later ones as it books them. Composing the services' own answers
 * keeps one rule engine; the one difference, said in docs/office.md, is that a later service
 * starting off its own slot grid is not offered (its availability does not list that time), though
 * the API would accept it there.
 */
import { addDays, startOfDay } from "../../pages/i18n/format";
import { serviceAvailability } from "../../services/availability";
import { authorise } from "../frame/authorise";
import type { DeskContext } from "../frame/desk";

/** The free times shown for one day: at most this many (a day of 5-minute slots is 288). */
const MAX_TIMES = 96;
const MINUTE = 60_000;

export type Time = { startTime: string; endTime: string };

/** The bookable slots of a service in `[from, to)` for the person (`any` or none: anyone). */
async function bookableSlots(c: DeskContext, serviceId: string, from: number, to: number, person?: string) {
  await authorise(c, "catalog:read", "GET /services/:id/availability", serviceId);
  const found = await serviceAvailability(c.env, c.var.db, c.var.caller.businessId, serviceId, {
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    ...(person && person !== "any" ? { providerId: person } : {}),
  });
  return found.slots
    .filter((slot) => slot.bookable)
    .map((slot) => ({ startTime: slot.startTime, endTime: slot.endTime }));
}

/** The day's bounds in the business's zone. */
const dayOf = (c: DeskContext, day: string) => {
  const { timezone } = c.var.desk;
  return { from: startOfDay(day, timezone), to: startOfDay(addDays(day, 1), timezone) };
};

/** The free times of `day` (business zone) for the service, for the person or anyone. */
export async function freeTimesOf(c: DeskContext, serviceId: string, day: string, person: string | undefined) {
  const { from, to } = dayOf(c, day);
  return (await bookableSlots(c, serviceId, from, to, person)).slice(0, MAX_TIMES);
}

/**
 * The free times of `day` for a visit of these services in order, each with its person: a start
 * is offered when each service, at its back-to-back time, is a bookable slot of its availability.
 * Each time spans the whole visit.
 */
export async function visitTimesOf(
  c: DeskContext,
  services: { id: string; durationMinutes: number; person?: string }[],
  day: string,
): Promise<Time[]> {
  const { from, to } = dayOf(c, day);
  const [first, ...rest] = services;
  if (!first) return [];
  // Each later service's slots are read over the day moved by the services before it (past
  // midnight too): a day's length each, so no read is longer than the first one's.
  let offset = first.durationMinutes * MINUTE;
  const ranges = rest.map((s) => {
    const range = { from: from + offset, to: to + offset };
    offset += s.durationMinutes * MINUTE;
    return range;
  });
  const [starts, ...later] = await Promise.all([
    bookableSlots(c, first.id, from, to, first.person),
    ...rest.map((s, i) => bookableSlots(c, s.id, ranges[i]?.from ?? from, ranges[i]?.to ?? to, s.person)),
  ]);
  const free = later.map((slots) => new Set(slots.map((slot) => Date.parse(slot.startTime))));
  const times: Time[] = [];
  for (const slot of starts ?? []) {
    let at = Date.parse(slot.startTime) + first.durationMinutes * MINUTE;
    const fits = rest.every((s, i) => {
      const ok = free[i]?.has(at) ?? false;
      at += s.durationMinutes * MINUTE;
      return ok;
    });
    if (fits) times.push({ startTime: slot.startTime, endTime: new Date(at).toISOString() });
    if (times.length === MAX_TIMES) break;
  }
  return times;
}
