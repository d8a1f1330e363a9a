/**
 * The connected calendar scenarios of `npm run bench` (docs/performance.md, "Connected calendars"): a real
 * CalDAV server (Xandikos, the Debian package) on loopback behind a counting proxy, so the bench
 * sees how many requests a read costs.
 *
 * - A 1-day slot calendar of a person with 500 busy times against the same person's twin with
 *   none, side by side (target: at most 1.2× the time, i.e. at least 0.83× the requests/s).
 * - A read of an unchanged 1,000-event calendar (`POST …/sync`): the requests it sent and its time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../test/support/dev-server.ts";
import { alternate } from "./pairs.ts";
import { call, DAY, provider, service, slotOfDay, slotTime } from "./seed.ts";

const PAIR_ROUNDS = 3;
const stamp = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, "")}Z`;
export const event = (uid: string, start: number, minutes: number) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//EN\r\nBEGIN:VEVENT\r\nUID:${uid}\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${stamp(start)}\r\nDTEND:${stamp(start + minutes * 60_000)}\r\nSUMMARY:Busy\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;

/** Xandikos on a free loopback port with a fresh directory, and a proxy in front that counts requests. */
export async function startCaldav() {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-xandikos-"));
  const port = await freePort();
  const child: ChildProcess = spawn("xandikos", ["--defaults", "-d", dir, "-l", "127.0.0.1", "-p", String(port)], {
    stdio: "ignore",
  });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("spawn", () => resolve());
  });
  const target = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${target}/user/calendars/`, { method: "PROPFIND", headers: { Depth: "0" } })
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const counter = { requests: 0 };
  const proxy: Server = createServer(async (req, res) => {
    counter.requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k, v]) => typeof v === "string" && k !== "host" && k !== "content-length"),
    ) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (name !== "content-length" && name !== "transfer-encoding") out[name] = value;
    });
    res.writeHead(answer.status, out);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const address = proxy.address();
  const proxied = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    direct: target,
    proxied,
    counter,
    async dispose() {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new calendar collection on the server; its path. */
export async function collection(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/user/calendars/${name}/`, {
    method: "MKCOL",
    headers: { "Content-Type": "application/xml" },
    body: '<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype></d:prop></d:set></d:mkcol>',
  });
  if (res.status !== 201) throw new Error(`MKCOL ${name}: ${res.status}`);
  return `/user/calendars/${name}/`;
}

/** PUTs `count` events, 10 at a time (each is a git commit in Xandikos). */
export async function fill(base: string, at: string, count: number, startOf: (i: number) => number, minutes: number) {
  for (let i = 0; i < count; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
        const n = i + j;
        const res = await fetch(`${base}${at}e${n}.ics`, {
          method: "PUT",
          headers: { "Content-Type": "text/calendar; charset=utf-8" },
          body: event(`e${n}`, startOf(n), minutes),
        });
        await res.arrayBuffer();
        if (res.status >= 300) throw new Error(`PUT e${n}: ${res.status}`);
      }),
    );
  }
}

export type CalendarBench = {
  /** 1-day availability requests/s, 500 busy times over none (medians of side-by-side rounds). */
  busyOverNone: { median: number; ratios: number[]; withBusy: number[]; withoutBusy: number[] };
  /** `POST …/sync` of an unchanged 1,000-event calendar: requests it sent, p50 and mean ms of 20. */
  unchangedRead: { events: number; requestsPerRead: number; p50Ms: number; meanMs: number };
};

/** Runs the connected calendar scenarios against the bench server (`url`, one business `key`). */
export async function calendarBench(url: string, key: string, seconds: number): Promise<CalendarBench> {
  const caldav = await startCaldav();
  try {
    const busyProvider = (await call(url, key, "POST", "/providers", provider("Busy person"))).body.id as string;
    const freeProvider = (await call(url, key, "POST", "/providers", provider("Free person"))).body.id as string;
    const busyService = (await call(url, key, "POST", "/services", service("Busy cut", 1, [busyProvider]))).body.id;
    const freeService = (await call(url, key, "POST", "/services", service("Free cut", 1, [freeProvider]))).body.id;
    // 500 busy times of 10 minutes, 50 a day over days 1–10: the measured day holds 50 of them.
    const busyAt = await collection(caldav.direct, "busy");
    const first = Date.parse(slotTime(slotOfDay(1)));
    await fill(caldav.direct, busyAt, 500, (n) => first + Math.floor(n / 50) * DAY + (n % 50) * 28 * 60_000, 10);
    const busyCal = await call(url, key, "POST", `/providers/${busyProvider}/calendars`, {
      url: `${caldav.proxied}${busyAt}`,
    });
    const emptyAt = await collection(caldav.direct, "empty");
    await call(url, key, "POST", `/providers/${freeProvider}/calendars`, { url: `${caldav.proxied}${emptyAt}` });
    if ((busyCal.body as { syncStatus?: string }).syncStatus !== "ok")
      throw new Error(`busy calendar: ${JSON.stringify(busyCal.body)}`);
    const day = `from=${slotTime(slotOfDay(3))}&to=${slotTime(slotOfDay(4))}`;
    const pairs = await alternate(
      PAIR_ROUNDS,
      {
        name: "availability 1 day, 500 busy times",
        url,
        seconds,
        apiKey: key,
        connections: 10,
        request: { path: `/api/v1/services/${busyService}/availability?${day}` },
      },
      {
        name: "availability 1 day, no busy time",
        url,
        seconds,
        apiKey: key,
        connections: 10,
        request: { path: `/api/v1/services/${freeService}/availability?${day}` },
      },
    );

    // An unchanged calendar of 1,000 events, read 20 times in a row.
    const bigAt = await collection(caldav.direct, "big");
    await fill(caldav.direct, bigAt, 1000, (n) => first + Math.floor(n / 40) * DAY + (n % 40) * 30 * 60_000, 15);
    const reader = (await call(url, key, "POST", "/providers", provider("Reader"))).body.id as string;
    const big = await call(url, key, "POST", `/providers/${reader}/calendars`, { url: `${caldav.proxied}${bigAt}` });
    const times: number[] = [];
    caldav.counter.requests = 0;
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      const read = await call(url, key, "POST", `/providers/${reader}/calendars/${big.body.id}/sync`);
      times.push(performance.now() - t);
      if ((read.body as { syncStatus?: string }).syncStatus !== "ok")
        throw new Error(`read: ${JSON.stringify(read.body)}`);
    }
    times.sort((a, b) => a - b);
    return {
      busyOverNone: {
        median: pairs.median,
        ratios: pairs.ratios,
        withBusy: pairs.a.map((r) => r.rps),
        withoutBusy: pairs.b.map((r) => r.rps),
      },
      unchangedRead: {
        events: 1000,
        requestsPerRead: caldav.counter.requests / 20,
        p50Ms: Math.round((times[10] as number) * 10) / 10,
        meanMs: Math.round((times.reduce((s, x) => s + x, 0) / times.length) * 10) / 10,
      },
    };
  } finally {
    await caldav.dispose();
  }
}
