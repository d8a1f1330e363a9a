/**
 * The slot calendar of one day of a service done by three people, as the limits bench and the
 * profiles measure it (scripts/bench/limits.ts, profile.ts): a 5-minute service open all day (288
 * slots) with three providers, each with bookings that day, made through the API (unnamed, so the
 * calendar assigns them). `limits` sets every limit the API has — the service's per day and per
 * week and per customer, each person's per day — high enough that the day stays bookable, so the
 * two shapes answer the same slots.
 */
import { bookingBody, call, provider, service, slotOfDay, slotTime } from "./seed.ts";

/** The day the scenario reads and books in (days after the seed's first slot). */
export const THREE_DAY = 5;
/** Bookings made in that day before it is read (spread over it, every 7th slot). */
export const THREE_BOOKINGS = 40;

/** The limits of the limited shape: set, and not reached by the seeded bookings. */
export const THREE_LIMITS = {
  service: { limits: { perDay: 1000, perWeek: 10_000 }, maxActivePerCustomer: 100 },
  person: { limits: { perDay: 1000 } },
};

/**
 * Creates the three people and their service (with every limit, or with none — the fields left
 * out, so a bundle that predates them takes the same requests) and books THREE_BOOKINGS in the
 * day. Answers the service's id.
 */
export async function dayOfThree(url: string, key: string, name: string, limits: boolean): Promise<string> {
  const people: string[] = [];
  for (let i = 0; i < 3; i++) {
    const body = { ...provider(`${name} person ${i}`), ...(limits ? THREE_LIMITS.person : {}) };
    people.push((await call(url, key, "POST", "/providers", body)).body.id);
  }
  const body = { ...service(name, 1, people), ...(limits ? THREE_LIMITS.service : {}) };
  const id = (await call(url, key, "POST", "/services", body)).body.id;
  const first = slotOfDay(THREE_DAY);
  for (let i = 0; i < THREE_BOOKINGS; i += 10) {
    const batch = Array.from({ length: Math.min(10, THREE_BOOKINGS - i) }, (_, j) => first + (i + j) * 7);
    const answers = await Promise.all(batch.map((n) => call(url, key, "POST", "/bookings", bookingBody(id, n))));
    const refused = answers.find((a) => a.status !== 201);
    if (refused)
      throw new Error(`seeding ${name}: a booking answered ${refused.status} ${JSON.stringify(refused.body)}`);
  }
  return id;
}

/** The path of that day's slot calendar. */
export const dayPath = (serviceId: string) =>
  `/api/v1/services/${serviceId}/availability?from=${slotTime(slotOfDay(THREE_DAY))}&to=${slotTime(slotOfDay(THREE_DAY + 1))}`;

/** The path of the week from that day. */
export const weekPath = (serviceId: string) =>
  `/api/v1/services/${serviceId}/availability?from=${slotTime(slotOfDay(THREE_DAY))}&to=${slotTime(slotOfDay(THREE_DAY + 7) - 16)}`;
