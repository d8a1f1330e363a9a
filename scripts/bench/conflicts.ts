/**
 * The conflicts scenario of `npm run bench -- --calendars` (docs/performance.md, "Connected
 * calendars"): a read that finds the calendar changed compares its busy times with the person's
 * bookings still to come. Two people read a calendar of the same 1,000 events, each event over one
 * of the first person's 1,000 bookings; the second has no booking. Between reads one more event
 * moves in both calendars, so every read finds a change and runs the comparison.
 * Target: a read over 1,000 bookings at most 2× the time of one over none (p50 of 10, side by side).
 */
import { collection, event, fill, startCaldav } from "./calendars.ts";
import { call, provider, seedBookings, service, slotOfDay, slotTime } from "./seed.ts";

const EVENTS = 1000;
const READS = 10;

export type ConflictBench = {
  /** The first read over the bookings: it finds every conflict (one row and one event each). */
  firstReadMs: number;
  conflictsFound: number;
  /** p50 ms of a changed read with 1,000 bookings under 1,000 events, and with none; and their ratio. */
  bookedP50Ms: number;
  emptyP50Ms: number;
  ratio: number;
};

const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Runs the scenario against the bench server (`url`, one business `key`). */
export async function conflictBench(url: string, key: string): Promise<ConflictBench> {
  const caldav = await startCaldav();
  try {
    const booked = (await call(url, key, "POST", "/providers", provider("Booked reader"))).body.id;
    const empty = (await call(url, key, "POST", "/providers", provider("Empty reader"))).body.id;
    const cut = (await call(url, key, "POST", "/services", service("Reader's cut", 1, [booked]))).body.id;
    const first = slotOfDay(1);
    const landed = await seedBookings(url, cut, first, EVENTS);
    if (landed !== EVENTS) throw new Error(`seeded ${landed} of ${EVENTS} bookings`);
    // Each event lies over one booking: 5 minutes at its slot.
    const at = {
      booked: await collection(caldav.direct, "over-booked"),
      empty: await collection(caldav.direct, "over-empty"),
    };
    const startOf = (n: number) => Date.parse(slotTime(first + n));
    for (const path of Object.values(at)) await fill(caldav.direct, path, EVENTS, startOf, 5);
    const connect = async (person: string, path: string) =>
      (await call(url, key, "POST", `/providers/${person}/calendars`, { url: `${caldav.proxied}${path}` })).body.id;
    const calendars = { booked: await connect(booked, at.booked), empty: await connect(empty, at.empty) };
    // One event far from every booking moves before each read, so the read finds a change.
    let flips = 0;
    const flip = async () => {
      flips++;
      const start = Date.parse(slotTime(slotOfDay(30) + flips));
      for (const path of Object.values(at)) {
        const res = await fetch(`${caldav.direct}${path}flip.ics`, {
          method: "PUT",
          headers: { "Content-Type": "text/calendar; charset=utf-8" },
          body: event("flip", start, 5),
        });
        await res.arrayBuffer();
      }
    };
    const read = async (person: string, calendar: string) => {
      const t = performance.now();
      const res = await call(url, key, "POST", `/providers/${person}/calendars/${calendar}/sync`);
      if ((res.body as { syncStatus?: string }).syncStatus !== "ok")
        throw new Error(`read: ${JSON.stringify(res.body)}`);
      return performance.now() - t;
    };
    await flip();
    const firstReadMs = await read(booked, calendars.booked);
    const times = { booked: [] as number[], empty: [] as number[] };
    for (let i = 0; i < READS; i++) {
      await flip();
      times.booked.push(await read(booked, calendars.booked));
      times.empty.push(await read(empty, calendars.empty));
    }
    const conflictsFound = await countConflicted(url, key);
    const bookedP50Ms = p50(times.booked);
    const emptyP50Ms = p50(times.empty);
    return {
      firstReadMs: round(firstReadMs),
      conflictsFound,
      bookedP50Ms: round(bookedP50Ms),
      emptyP50Ms: round(emptyP50Ms),
      ratio: Math.round((bookedP50Ms / emptyP50Ms) * 100) / 100,
    };
  } finally {
    await caldav.dispose();
  }
}

/** The business's conflicted bookings, counted page by page. */
async function countConflicted(url: string, key: string): Promise<number> {
  let count = 0;
  let after = "";
  do {
    const res = await fetch(`${url}/api/v1/bookings?conflicted=true&limit=100${after ? `&after=${after}` : ""}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const page = (await res.json()) as { data: unknown[]; pagination: { nextCursor: string | null } };
    count += page.data.length;
    after = page.pagination.nextCursor ?? "";
  } while (after);
  return count;
}
