/**
 * Refusals of the widest service the API allows — 50 providers and 5 rooms, one room closed at
 * the requested time — so every candidate is refused by the same calendar: a plain create and a
 * weekly series of 52 (`reject` and `skip`), each a 409 that changes nothing. The bench measures
 * them in alternation on one connection (as scripts/bench/pairs.ts does for throughput): what one
 * write may cost, against another measured seconds apart.
 */
import { runScenario } from "./load.ts";
import { call, provider, service, slotOfDay, slotTime } from "./seed.ts";

/** People and rooms of the service: the API's maxima (`providerIds` ≤ 50, `resourceIds` ≤ 5). */
export const PEOPLE = 50;
export const ROOMS = 5;
/** Occurrences of the refused series: the API's maximum. */
export const REFUSED_SERIES_COUNT = 52;

/** The refused requests' bodies, for one service set up by `refusalService`. */
export type Refusals = { create: string; seriesReject: string; seriesSkip: string };

/**
 * A service of PEOPLE providers and ROOMS rooms, the last room open only 00:00–12:00 (UTC), and
 * the bodies of a create and of a weekly series of 52 at 14:00, which that room refuses.
 */
export async function refusalService(url: string, key: string): Promise<Refusals> {
  const people: string[] = [];
  for (let i = 0; i < PEOPLE; i += 10)
    people.push(
      ...(await Promise.all(
        Array.from(
          { length: 10 },
          async (_, j) => (await call(url, key, "POST", "/providers", provider(`Crew ${i + j}`))).body.id,
        ),
      )),
    );
  const rooms: string[] = [];
  const morning = [{ start: "00:00", end: "12:00" }];
  const mornings = { mon: morning, tue: morning, wed: morning, thu: morning, fri: morning, sat: morning, sun: morning };
  for (let i = 0; i < ROOMS; i++) {
    const closed = i === ROOMS - 1 ? { weeklySchedule: mornings } : {};
    rooms.push(
      (await call(url, key, "POST", "/resources", { name: `Bay ${i}`, quantity: 1, timezone: "UTC", ...closed })).body
        .id,
    );
  }
  // Created with its rooms, then given its people: POST /services with more than 33 providers
  // answers a 500 (one insert of every link row passes D1's 100 bound parameters).
  const id = (await call(url, key, "POST", "/services", { ...service("Crew job"), resourceIds: rooms })).body.id;
  const assignees = await call(url, key, "PATCH", `/services/${id}`, { providerIds: people });
  if (assignees.status !== 200)
    throw new Error(`PATCH /services answered ${assignees.status}: ${JSON.stringify(assignees.body)}`);
  // 14:00 on the third day: inside the service's and every person's hours, outside the last
  // room's; the 52nd week is 359 days out, inside the API's 366.
  const slot = slotOfDay(2) + (14 * 60) / 5;
  const booking = {
    serviceId: id,
    customerName: "Refused Customer",
    customerEmail: "refused@example.com",
    startTime: slotTime(slot),
    endTime: slotTime(slot + 1),
  };
  const series = (onConflict: string) =>
    JSON.stringify({ ...booking, recurrence: `FREQ=WEEKLY;COUNT=${REFUSED_SERIES_COUNT}`, onConflict });
  return { create: JSON.stringify(booking), seriesReject: series("reject"), seriesSkip: series("skip") };
}

/** One round's p50s (ms) of each refusal, measured one after the other on one connection. */
export type RefusalRound = { create: number; seriesReject: number; seriesSkip: number };

/** The refusals' p50s, rounds side by side, and each series' p50 over the create's (median of the rounds). */
export type RefusalRatios = {
  rounds: RefusalRound[];
  /** Answers other than 409 (0 for the ratios to count). */
  non409: number;
  seriesRejectOverCreate: number;
  seriesSkipOverCreate: number;
};

const round2 = (x: number) => Math.round(x * 100) / 100;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/**
 * Measures the three refusals `rounds` times in alternation, each on one connection for a fixed
 * number of requests (a refusal changes nothing, so every request is the same): the ratio of two
 * p50s taken seconds apart, not minutes, is what one request costs against the other.
 */
export async function measureRefusals(
  url: string,
  key: string,
  bodies: Refusals,
  { rounds, creates, series }: { rounds: number; creates: number; series: number },
): Promise<RefusalRatios> {
  const result: RefusalRatios = { rounds: [], non409: 0, seriesRejectOverCreate: 0, seriesSkipOverCreate: 0 };
  const refuse = async (name: string, path: string, body: string, amount: number) => {
    const r = await runScenario(name, {
      url,
      apiKey: key,
      seconds: 0,
      connections: 1,
      amount,
      expectStatus: 409,
      request: { method: "POST", path, body },
    });
    result.non409 += (r.unexpected ?? 0) + r.errors;
    return r.p50;
  };
  for (let i = 0; i < rounds; i++) {
    result.rounds.push({
      create: await refuse("refused create", "/api/v1/bookings", bodies.create, creates),
      seriesReject: await refuse("refused series, reject", "/api/v1/series", bodies.seriesReject, series),
      seriesSkip: await refuse("refused series, skip", "/api/v1/series", bodies.seriesSkip, series),
    });
  }
  const over = (pick: (r: RefusalRound) => number) =>
    round2(median(result.rounds.map((r) => pick(r) / Math.max(r.create, 1))));
  result.seriesRejectOverCreate = over((r) => r.seriesReject);
  result.seriesSkipOverCreate = over((r) => r.seriesSkip);
  return result;
}
