/**
 * The office, measured (`npm run bench -- --office`; docs/performance.md, "The office"): a day of
 * 10 people with 30 bookings each, read as the day page by a signed-in owner beside the keyed
 * `GET /bookings?limit=100`, in alternating rounds; the page's size and the office script's; and
 * how long a booking made elsewhere takes to reach an open day page while 10 clients book at once.
 * Targets: the day page at ≥ 0.5× the list's requests/s; each page ≤ 60 KB and the script ≤ 15 KB
 * gzip; a new booking on the open day page within 5 s at p99.
 */
import { gzipSync } from "node:zlib";
import { sessionOf } from "./access.ts";
import { runScenario } from "./load.ts";
import { call, provider, service, slotOfDay, slotTime } from "./seed.ts";
import { startBenchServer } from "./server.ts";

const PEOPLE = 10;
const PER_PERSON = 30;
/** The office script's poll (src/office/assets/script.ts): the live path's own period. */
const POLL_MS = 3_000;
const CREATORS = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))] as number;

/** The bookings' ids a day page's columns link to. */
const idsIn = (html: string) =>
  new Set([...html.matchAll(/\/office\/bookings\/(bkg_\w+)/g)].map((m) => m[1] as string));

/** Runs the office scenarios on a fresh bench server. */
export async function officeBench(rounds: number, seconds: number) {
  const server = await startBenchServer();
  try {
    const key = await server.createAccount("Bench Office");
    const cookie = `session=${await sessionOf(server, key)}`;
    const people: string[] = [];
    for (let i = 0; i < PEOPLE; i++)
      people.push((await call(server.url, key, "POST", "/providers", provider(`Person ${i}`))).body.id);
    const cut = (await call(server.url, key, "POST", "/services", service("Office cut", 1, people))).body.id;
    // The day: tomorrow in UTC (the business's zone), 30 bookings a person, one every 15 minutes from 08:00.
    const first = slotOfDay(0);
    const day = slotTime(first).slice(0, 10);
    for (const [p, person] of people.entries()) {
      await Promise.all(
        Array.from({ length: PER_PERSON }, (_, i) =>
          call(server.url, key, "POST", "/bookings", {
            serviceId: cut,
            providerId: person,
            customerName: `Customer ${p}-${i}`,
            customerEmail: `c${p}x${i}@example.com`,
            startTime: slotTime(first + 96 + i * 3),
            endTime: slotTime(first + 97 + i * 3),
          }),
        ),
      );
    }
    const page = await fetch(`${server.url}/office/day/${day}`, { headers: { cookie } });
    const html = await page.text();
    if (page.status !== 200 || idsIn(html).size !== PEOPLE * PER_PERSON) {
      throw new Error(`day page: ${page.status}, ${idsIn(html).size} bookings shown`);
    }
    const scriptPath = /<script[^>]+src="([^"]+)"/.exec(html)?.[1];
    const script = scriptPath ? await (await fetch(`${server.url}${scriptPath}`)).arrayBuffer() : new ArrayBuffer(0);

    const targets: { name: string; path: string; headers: Record<string, string> }[] = [
      {
        name: "GET /bookings?limit=100 (key)",
        path: `/api/v1/bookings?limit=100`,
        headers: { authorization: `Bearer ${key}` },
      },
      { name: "day page (owner's session)", path: `/office/day/${day}`, headers: { cookie } },
    ];
    const rps: number[][] = targets.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const result = await runScenario(t.name, {
          url: server.url,
          seconds,
          connections: 10,
          expectStatus: 200,
          request: () => ({ path: t.path, headers: t.headers }),
        });
        if (result.unexpected) throw new Error(`${t.name}: ${result.unexpected} answers were not 200`);
        rps[i]?.push(result.rps);
      }
    }
    const [list, dayPage] = rps.map(median) as [number, number];
    // A day of its own for the live part (288 five-minute slots; at most 250 are booked).
    const live = await liveArrival(server.url, key, cookie, cut, people, slotOfDay(3), seconds * 3);
    return {
      day,
      rps: { list, dayPage },
      dayOverList: Math.round((dayPage / list) * 100) / 100,
      pageBytes: Buffer.byteLength(html),
      pageGzipBytes: gzipSync(Buffer.from(html)).length,
      scriptGzipBytes: gzipSync(Buffer.from(script)).length,
      live,
    };
  } finally {
    await server.dispose();
  }
}

/**
 * Ten clients book for `seconds` while one open day page polls as its script does (every 3 s: the
 * version, then the columns when it changed). Each booking's delay is from its 201 to the poll
 * whose columns first show it.
 */
async function liveArrival(
  url: string,
  key: string,
  cookie: string,
  serviceId: string,
  people: string[],
  from: number,
  seconds: number,
) {
  const day = slotTime(from).slice(0, 10);
  const created = new Map<string, number>();
  const seen = new Map<string, number>();
  const until = Date.now() + seconds * 1000;
  let slot = from;
  const creator = async (n: number) => {
    while (Date.now() < until && slot < from + 250) {
      const at = slot++;
      const res = await call(url, key, "POST", "/bookings", {
        serviceId,
        providerId: people[n % people.length],
        customerName: `Live ${at}`,
        customerEmail: `live${at}@example.com`,
        startTime: slotTime(at),
        endTime: slotTime(at + 1),
      });
      if (res.status === 201) created.set(res.body.id, Date.now());
    }
  };
  let version = "";
  const poll = async () => {
    const head = await fetch(`${url}/office/day/${day}/version`, { headers: { cookie, "if-none-match": version } });
    await head.arrayBuffer();
    if (head.status === 304) return;
    version = head.headers.get("etag") ?? "";
    const columns = await (await fetch(`${url}/office/day/${day}/columns`, { headers: { cookie } })).text();
    const now = Date.now();
    for (const id of idsIn(columns)) if (!seen.has(id)) seen.set(id, now);
  };
  await poll();
  let polling = true;
  const watcher = (async () => {
    while (polling) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      await poll();
    }
  })();
  await Promise.all(Array.from({ length: CREATORS }, (_, n) => creator(n)));
  // One more poll period so the last bookings can arrive.
  await new Promise((resolve) => setTimeout(resolve, POLL_MS + 500));
  polling = false;
  await watcher;
  const delays = [...created].map(([id, at]) => (seen.get(id) ?? Number.POSITIVE_INFINITY) - at);
  return {
    bookings: created.size,
    arrived: delays.filter(Number.isFinite).length,
    // A booking that never arrived counts as never (null in JSON): the target then fails.
    p50Ms: percentile(delays, 50),
    p99Ms: percentile(delays, 99),
  };
}
