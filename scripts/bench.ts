/**
 * `npm run bench [-- --json] [-- --seconds N]`: throughput and latency of the production bundle on
 * workerd, each scenario reported against a one-line Worker on the same runtime (the floor) and
 * against `/health`, both measured in the same run. Prints one table and writes bench/results.json.
 * `-- --profile` records CPU profiles instead (scripts/bench/profile.ts), `-- --memory` the
 * heap per request (scripts/bench/memory.ts), `-- --scale [sizes]` the lists as one business's
 * bookings grow (scripts/bench/scale.ts; sizes default to 10000,100000), `-- --moves [sizes]` a
 * business moved between shards as its data grows (scripts/bench/relocations.ts), `-- --baseline <rev>`
 * booking a hold, a plain create and a customer create on this tree and on another revision, side by side
 * (scripts/bench/hold-booking.ts), `-- --probes [--baseline <rev>]` a feed poll and a manage-link
 * read on this tree and on another revision (default main), side by side (scripts/bench/probes.ts),
 * `-- --writes [--baseline <rev>]` a series of 52 and an import of 400 alike (scripts/bench/writes.ts),
 * `-- --access [--baseline <rev>]` a keyed read and a member's on this tree beside a revision before
 * members and scopes (scripts/bench/access.ts), `-- --office` the office's day page beside the keyed list, its sizes
 * and a booking's arrival on an open day page (scripts/bench/office.ts).
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { type EmailsPair, emailsOnVsOff } from "./bench/emails.ts";
import { runScenario, type ScenarioResult } from "./bench/load.ts";
import { type Alternation, alternate } from "./bench/pairs.ts";
import { measureRefusals, REFUSED_SERIES_COUNT, refusalService } from "./bench/refusals.ts";
import {
  bookingBody,
  call as callAt,
  provider,
  SERIES_COUNT,
  seedBookings as seedAt,
  seriesBody,
  service,
  slotOfDay,
  slotTime,
  VISIT_MINUTES,
  visitBody,
} from "./bench/seed.ts";
import { startBenchServer, startCalibrationServer } from "./bench/server.ts";
import { shardsLine, twoShardsVsOne } from "./bench/shards.ts";
import { recordPlan } from "./bench/statements-floor.ts";

const { values: args } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    seconds: { type: "string", default: "4" },
    profile: { type: "boolean", default: false },
    only: { type: "string" },
    memory: { type: "boolean", default: false },
    requests: { type: "string", default: "50000" },
    scale: { type: "string" },
    moves: { type: "string" },
    customers: { type: "string", default: "100000" },
    emails: { type: "boolean", default: false },
    shards: { type: "boolean", default: false },
    calendars: { type: "boolean", default: false },
    limits: { type: "boolean", default: false },
    probes: { type: "boolean", default: false },
    writes: { type: "boolean", default: false },
    access: { type: "boolean", default: false },
    office: { type: "boolean", default: false },
    baseline: { type: "string" },
    rounds: { type: "string", default: "7" },
  },
});
const seconds = Number(args.seconds);
/** Rounds of the side-by-side pairs behind the near-floor ratios (scripts/bench/pairs.ts). */
const PAIR_ROUNDS = 3;
/** Creates on each side of the e-mails pair (scripts/bench/emails.ts). */
const EMAIL_PAIRS = 1_500;
/** Rounds of the refusals measured in alternation: cheap (seconds each), so more of them. */
const REFUSAL_ROUNDS = 5;
const root = path.resolve(import.meta.dirname, "..");
const log = (msg: string) => process.stderr.write(`${msg}\n`);

if (args.profile) {
  const { profile } = await import("./bench/profile.ts");
  await profile({ seconds, outDir: path.join(root, "bench", "out"), only: args.only?.split(",") });
  process.exit(0);
}
if (args.scale !== undefined) {
  const { scale } = await import("./bench/scale.ts");
  const sizes = (args.scale || "10000,100000").split(",").map(Number);
  const result = await scale({ sizes, seconds, customers: Number(args.customers) });
  console.log("| bookings | request | req/s | p50 ms | p99 ms | rows read / request |");
  console.log("|---:|---|---:|---:|---:|---:|");
  for (const r of result.rows) {
    console.log(
      `| ${r.bookings.toLocaleString("en-US")} | ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.rowsRead ?? ""} |`,
    );
  }
  console.log(`\n/health over the one-line Worker without the assets router: ×${result.healthOverFloor}`);
  process.exit(0);
}
if (args.moves !== undefined) {
  // `-- --moves [sizes]`: a business moved between shards as its data grows (scripts/bench/relocations.ts).
  const { moves } = await import("./bench/relocations.ts");
  const sizes = (args.moves || "1000,10000").split(",").map(Number);
  console.log("| bookings | beside another's | rows moved | writes held ms | move ms | rows/s |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (const r of await moves(sizes)) {
    const n = (x: number) => x.toLocaleString("en-US");
    console.log(
      `| ${n(r.bookings)} | ${n(r.beside)} | ${n(r.rows)} | ${r.heldMs} | ${r.totalMs} | ${r.rowsPerSecond} |`,
    );
  }
  process.exit(0);
}
if (args.calendars) {
  // Only the connected calendar scenarios (they need the Debian package xandikos).
  const { calendarBench } = await import("./bench/calendars.ts");
  const server = await startBenchServer();
  try {
    const result = await calendarBench(server.url, await server.createAccount("Bench Calendars"), seconds);
    const { conflictBench } = await import("./bench/conflicts.ts");
    const conflicts = await conflictBench(server.url, await server.createAccount("Bench Conflicts"));
    console.log(JSON.stringify({ ...result, conflicts }, null, 2));
    console.log(
      `targets: busyAvailabilityWithin120pct ${result.busyOverNone.median >= 1 / 1.2 ? "yes" : "NO"}, unchangedReadOneRequest ${result.unchangedRead.requestsPerRead === 1 ? "yes" : "NO"}, conflictReadWithin2x ${conflicts.ratio <= 2 ? "yes" : "NO"}`,
    );
  } finally {
    await server.dispose();
  }
  process.exit(0);
}
if (args.limits) {
  // Booking limits' pairs: this bundle beside an earlier commit's (scripts/bench/limits.ts).
  const { limitsBench, limitsLines } = await import("./bench/limits.ts");
  const report = await limitsBench(seconds, args.baseline);
  for (const line of limitsLines(report)) console.log(line);
  mkdirSync(path.join(root, "bench"), { recursive: true });
  writeFileSync(path.join(root, "bench", "limits.json"), `${JSON.stringify(report, null, 2)}\n`);
  process.exit(0);
}
if (args.probes) {
  // Feed polls and manage-link reads, this tree beside a baseline (scripts/bench/probes.ts).
  const { compareProbes } = await import("./bench/probes.ts");
  const result = await compareProbes(args.baseline ?? "main", Number(args.rounds), seconds);
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
if (args.office) {
  // The day page of 10 people × 30 bookings beside GET /bookings?limit=100, sizes, live arrival (scripts/bench/office.ts).
  const { officeBench } = await import("./bench/office.ts");
  const result = await officeBench(Number(args.rounds) > 5 ? 3 : Number(args.rounds), seconds);
  console.log(JSON.stringify(result, null, 2));
  const yes = (ok: boolean) => (ok ? "yes" : "NO");
  console.log(
    `targets: dayAtHalfTheList ${yes(result.dayOverList >= 0.5)}, pageWithin60KB ${yes(result.pageBytes <= 60_000)}, scriptWithin15KBGzip ${yes(result.scriptGzipBytes <= 15_000)}, liveP99Within5s ${yes(result.live.p99Ms <= 5_000)}`,
  );
  process.exit(0);
}
if (args.access) {
  // A keyed read and a member's, this tree beside a revision before members and scopes (scripts/bench/access.ts).
  const { compareAccess } = await import("./bench/access.ts");
  const result = await compareAccess(args.baseline ?? "c322d72", Number(args.rounds), seconds);
  console.log(JSON.stringify(result, null, 2));
  console.log(
    `targets: keyWithin110pct ${result.keyOverBefore <= 1.1 ? "yes" : "NO"}, sessionWithin110pct ${result.sessionOverBefore <= 1.1 ? "yes" : "NO"}`,
  );
  process.exit(0);
}
if (args.writes) {
  // A series of 52 and an import of 400, this tree beside a baseline (scripts/bench/writes.ts).
  const { compareWrites } = await import("./bench/writes.ts");
  const result = await compareWrites(args.baseline ?? "main", Number(args.rounds));
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
if (args.baseline !== undefined) {
  // A hold's booking, this tree beside an earlier revision's (scripts/bench/hold-booking.ts).
  const { compareHoldBookings } = await import("./bench/hold-booking.ts");
  const result = await compareHoldBookings(args.baseline, Number(args.rounds));
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
if (args.memory) {
  const { memory } = await import("./bench/memory.ts");
  await memory({ requests: Number(args.requests) });
  process.exit(0);
}

/**
 * The floor: a one-line Worker on the same workerd with the same Miniflare options, alive for the
 * whole run and measured (2 s, after its warm-up) right before each scenario. Each scenario's
 * ratio is to the floor measured beside it, so a machine that gets busier or quieter during the
 * run moves the floor with it instead of skewing the later rows.
 */
const floorServer = await startCalibrationServer();
log(`bench: the one-line Worker at ${floorServer.url}`);
const floorBeside = async () =>
  (
    await runScenario("floor", {
      url: floorServer.url,
      seconds: Math.min(2, seconds),
      connections: 10,
      request: { path: "/api/v1/health" },
    })
  ).rps;

const server = await startBenchServer();
log(`bench: serving the bundle (${server.bundle.gzip} B gzip) at ${server.url}`);
if (args.emails) {
  // `-- --emails`: only the e-mails pair (the full run includes it).
  try {
    const pair = await emailsOnVsOff(server, EMAIL_PAIRS);
    console.log(emailsLine(pair));
  } finally {
    await server.dispose();
    await floorServer.dispose();
  }
  process.exit(0);
}
if (args.shards) {
  // `-- --shards`: only the shards pair (the full run includes it).
  try {
    console.log(shardsLine(await twoShardsVsOne(server, seconds, PAIR_ROUNDS)));
  } finally {
    await server.dispose();
    await floorServer.dispose();
  }
  process.exit(0);
}
const call = (key: string, method: string, route: string, body?: unknown) =>
  callAt(server.url, key, method, route, body);
const seedBookings = (serviceId: string, firstSlot: number, count: number) =>
  seedAt(server.url, serviceId, firstSlot, count);

try {
  type Measured = ScenarioResult & { floorRps: number };
  const results: Measured[] = [];
  const run = async (name: string, options: Omit<Parameters<typeof runScenario>[1], "url" | "seconds">) => {
    log(`bench: ${name}`);
    const floorRps = await floorBeside();
    const r = { ...(await runScenario(name, { url: server.url, seconds, ...options })), floorRps };
    results.push(r);
    return r;
  };

  // Data, all through the API: 10,000 bookings in one service, a catalog, customers.
  const key = await server.createAccount("Bench Salon");
  const listed = (await call(key, "POST", "/services", service("Listed"))).body.id;
  for (let i = 0; i < 15; i++) await call(key, "POST", "/services", service(`Catalog ${i}`));
  let t = performance.now();
  const seeded = await seedBookings(listed, 0, 10_000);
  const seedRate = Math.round(seeded / ((performance.now() - t) / 1000));
  log(`bench: seeded ${seeded} bookings at ${seedRate}/s`);

  const health = await run("GET /health", { connections: 10, request: { path: "/api/v1/health" } });
  // The /health target is against a one-line Worker without the assets router (the API
  // is served without it, as Cloudflare routes it): three rounds of the two side by side.
  const bareFloor = await startCalibrationServer({ assets: false });
  const healthPath = { connections: 10, request: { path: "/api/v1/health" } };
  const healthVsBare = await alternate(
    PAIR_ROUNDS,
    { name: "GET /health", url: server.url, seconds, ...healthPath },
    { name: "one-line Worker, no assets", url: bareFloor.url, seconds, ...healthPath },
  );
  await bareFloor.dispose();
  const healthOverBare = healthVsBare.median;
  // Each list beside a Worker that sends only its statements, with the same bindings: the table's
  // rows (each with the floor beside it), then the two in alternation for the ratio.
  const listFloors: { name: string; api: Measured; statements: Measured; pairs: Alternation }[] = [];
  const list = async (name: string, route: string) => {
    const api = await run(name, { apiKey: key, connections: 10, request: { path: `/api/v1${route}` } });
    const replay = await recordPlan(server.url, key, route, `list${listFloors.length}`);
    const statements = await run(`${name}: its statements alone`, { connections: 10, request: { path: replay } });
    const pairs = await alternate(
      PAIR_ROUNDS,
      { name, url: server.url, seconds, apiKey: key, connections: 10, request: { path: `/api/v1${route}` } },
      { name: `${name}: its statements alone`, url: server.url, seconds, connections: 10, request: { path: replay } },
    );
    listFloors.push({ name, api, statements, pairs });
  };
  await list("GET /services", "/services");
  await list("GET /customers?search=", "/customers?search=customer4");
  await list("GET /bookings?limit=20", "/bookings?limit=20");
  await list("GET /bookings page 1", "/bookings?page=1&limit=20");
  await list("GET /bookings last page", "/bookings?page=500&limit=20");
  const day = (d: number) => `from=${slotTime(slotOfDay(d))}&to=${slotTime(slotOfDay(d + 1))}`;
  // Seven days of 5-minute slots are 2,016: the last 16 are past the 2,000-slot bound of one call.
  const week = `from=${slotTime(0)}&to=${slotTime(2000)}`;
  const availabilityDay = await run("GET availability 1 day", {
    apiKey: key,
    connections: 10,
    request: { path: `/api/v1/services/${listed}/availability?${day(3)}` },
  });
  // The same read as an MCP tool call: the POST, the protocol, the in-process REST call, the summary.
  const mcpFind = await run("MCP find_availability 1 day", {
    apiKey: key,
    connections: 10,
    request: {
      method: "POST",
      path: "/api/v1/mcp",
      body: mcpToolCall("find_availability", {
        serviceId: listed,
        from: slotTime(slotOfDay(3)),
        to: slotTime(slotOfDay(4)),
      }),
    },
  });
  // The booking page's day of times (HTML, no key) beside the keyed JSON of the same day, in
  // alternation: a day of a 5-minute service with nothing booked, 288 free times to render.
  const pageService = (await call(key, "POST", "/services", { ...service("Page day"), bookableOnline: true })).body.id;
  await call(key, "PATCH", "/business", { slug: "bench-salon", bookingPage: { enabled: true } });
  const pageDay = slotTime(slotOfDay(3)).slice(0, 10);
  const dayTimesPairs = await alternate(
    PAIR_ROUNDS,
    {
      name: "GET /book/{slug} a day's times (HTML)",
      url: server.url,
      seconds,
      connections: 10,
      request: { path: `/book/bench-salon?service=${pageService}&day=${pageDay}&tz=UTC` },
    },
    {
      name: "GET availability 1 day (JSON, keyed)",
      url: server.url,
      seconds,
      apiKey: key,
      connections: 10,
      request: { path: `/api/v1/services/${pageService}/availability?${day(3)}` },
    },
  );
  await run("GET availability 7 days", {
    apiKey: key,
    connections: 10,
    request: { path: `/api/v1/services/${listed}/availability?${week}` },
  });

  // Availability with many people: a week of a service with 20 providers against one with 1,
  // each person with 50 bookings in that week (every calendar's claims are read for the answer).
  const providersWeek = async (people: number) => {
    const ids: string[] = [];
    for (let i = 0; i < people; i++) ids.push((await call(key, "POST", "/providers", provider(`Week ${i}`))).body.id);
    const id = (await call(key, "POST", "/services", service(`Week of ${people}`, 1, ids))).body.id;
    const slots = Array.from({ length: 50 * people }, (_, i) => (i * 37) % 2000);
    for (let i = 0; i < slots.length; i += 10)
      await Promise.all(
        slots.slice(i, i + 10).map((n, j) => call(key, "POST", "/bookings", bookingBody(id, n, i + j))),
      );
    return run(`GET availability 7 days, ${people} provider${people > 1 ? "s" : ""}`, {
      apiKey: key,
      connections: 10,
      request: { path: `/api/v1/services/${id}/availability?${week}` },
    });
  };
  const weekOfOne = await providersWeek(1);
  const weekOfTwenty = await providersWeek(20);

  // A person's calendar feed with 1,000 bookings, as a calendar app polls it (no If-None-Match).
  const feedProvider = (await call(key, "POST", "/providers", provider("Feed person"))).body.id;
  const feedService = (await call(key, "POST", "/services", service("Feed service", 1, [feedProvider]))).body.id;
  await seedBookings(feedService, slotOfDay(1), 1000);
  const feedUrl = new URL(
    ((await call(key, "POST", `/providers/${feedProvider}/feed`)).body as unknown as { url: string }).url,
  );
  const feedBytes = (await (await fetch(`${server.url}${feedUrl.pathname}`)).arrayBuffer()).byteLength;
  const feed = await run("GET a person's feed, 1,000 bookings", {
    connections: 10,
    request: { path: feedUrl.pathname },
  });

  // A person's own calendars (CalDAV, Xandikos on loopback): busy times in the slot calendar, an unchanged read.
  const { calendarBench } = await import("./bench/calendars.ts");
  const calendars = await calendarBench(server.url, key, seconds);

  // Creates into distinct free slots: one hot service (10 and 20 connections), then spread over 16.
  const hot = (await call(key, "POST", "/services", service("Hot"))).body.id;
  let hotSlot = 0;
  const plainCreate = await run("POST /bookings hot service", {
    apiKey: key,
    connections: 10,
    expectStatus: 201,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(hot, hotSlot++) }),
  });
  const mcpBook = await run("MCP book_appointment hot service", {
    apiKey: key,
    connections: 10,
    request: () => ({
      method: "POST",
      path: "/api/v1/mcp",
      body: mcpToolCall("book_appointment", JSON.parse(bookingBody(hot, hotSlot++))),
    }),
  });
  await run("POST /bookings distinct slots, 20 conns", {
    apiKey: key,
    connections: 20,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(hot, hotSlot++) }),
  });
  // A person's time: one hot provider shared by two services, then assignment among five.
  const stylist = (await call(key, "POST", "/providers", provider("Hot stylist"))).body.id;
  const cuts = (await call(key, "POST", "/services", service("Cut", 1, [stylist]))).body.id;
  const colours = (await call(key, "POST", "/services", service("Colour", 1, [stylist]))).body.id;
  let providerSlot = 0;
  const providerCreate = await run("POST /bookings one provider, 2 services", {
    apiKey: key,
    connections: 10,
    request: () => {
      const n = providerSlot++;
      return {
        method: "POST",
        path: "/api/v1/bookings",
        body: bookingBody(n % 2 ? colours : cuts, n, n, { providerId: stylist }),
      };
    },
  });
  // Every calendar a booking needs: a person and a room (two claims), and a team of two people.
  const therapist = (await call(key, "POST", "/providers", provider("Therapist"))).body.id;
  const room = (await call(key, "POST", "/resources", { name: "Room", quantity: 1, timezone: "UTC" })).body.id;
  const massage = (await call(key, "POST", "/services", { ...service("Massage", 1, [therapist]), resourceIds: [room] }))
    .body.id;
  let roomSlot = 0;
  const providerAndRoom = await run("POST /bookings person + room", {
    apiKey: key,
    connections: 10,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(massage, roomSlot++) }),
  });
  const pair: string[] = [];
  for (let i = 0; i < 2; i++) pair.push((await call(key, "POST", "/providers", provider(`Pair ${i}`))).body.id);
  const duo = (await call(key, "POST", "/services", { ...service("Duo", 1, pair), providerMode: "all" })).body.id;
  let duoSlot = 0;
  const teamOfTwo = await run("POST /bookings team of 2", {
    apiKey: key,
    connections: 10,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(duo, duoSlot++) }),
  });
  // A visit of three services back to back (5, 10 and 15 minutes: three service calendars), and a
  // weekly series of 12 occurrences of one service; each request on times no other request takes,
  // so every answer is a 201 (any other status is counted as unexpected and fails the target).
  const visitParts: string[] = [];
  for (const [i, minutes] of VISIT_MINUTES.entries())
    visitParts.push(
      (await call(key, "POST", "/services", { ...service(`Visit part ${i}`), durationMinutes: minutes })).body.id,
    );
  let visitN = 0;
  await expectCreated(
    "a visit",
    call(key, "POST", "/appointments", visitBody(visitParts, visitN++)),
    VISIT_MINUTES.length,
  );
  const visit = await run(`POST /appointments ${VISIT_MINUTES.length} segments`, {
    apiKey: key,
    connections: 10,
    expectStatus: 201,
    request: () => ({ method: "POST", path: "/api/v1/appointments", body: visitBody(visitParts, visitN++) }),
  });
  const weekly = (await call(key, "POST", "/services", service("Weekly"))).body.id;
  let seriesN = 0;
  await expectCreated("a series", call(key, "POST", "/series", seriesBody(weekly, seriesN++)), SERIES_COUNT);
  const series = await run(`POST /series weekly, ${SERIES_COUNT} occurrences`, {
    apiKey: key,
    connections: 10,
    expectStatus: 201,
    request: () => ({ method: "POST", path: "/api/v1/series", body: seriesBody(weekly, seriesN++) }),
  });
  // What one refused write costs on the widest service (50 people, 5 rooms, one room closed then):
  // a create and a weekly series of 52 (reject and skip), side by side on one connection.
  log("bench: refusals of a service with 50 people and 5 rooms");
  const refusals = await measureRefusals(server.url, key, await refusalService(server.url, key), {
    rounds: REFUSAL_ROUNDS,
    creates: 20,
    series: 5,
  });
  const team: string[] = [];
  for (let i = 0; i < 5; i++) team.push((await call(key, "POST", "/providers", provider(`Stylist ${i}`))).body.id);
  const teamService = (await call(key, "POST", "/services", service("Team cut", 1, team))).body.id;
  let teamSlot = 0;
  await run("POST /bookings auto-assigned among 5", {
    apiKey: key,
    connections: 10,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(teamService, teamSlot++) }),
  });
  const spread: string[] = [];
  for (let i = 0; i < 16; i++) spread.push((await call(key, "POST", "/services", service(`Spread ${i}`))).body.id);
  let spreadN = 0;
  await run("POST /bookings 16 services", {
    apiKey: key,
    connections: 16,
    request: () => {
      const n = spreadN++;
      return {
        method: "POST",
        path: "/api/v1/bookings",
        body: bookingBody(spread[n % 16] as string, Math.floor(n / 16)),
      };
    },
  });

  // Create latency with 0 vs 50,000 bookings already in the service (new slots far from them).
  const bigKey = await server.createAccount("Bench Big");
  const empty = (await call(bigKey, "POST", "/services", service("Empty"))).body.id;
  const big = (await call(bigKey, "POST", "/services", service("Big"))).body.id;
  t = performance.now();
  const bigSeeded = await seedBookings(big, 0, 50_000);
  log(`bench: seeded ${bigSeeded} bookings into one service in ${Math.round(performance.now() - t)} ms`);
  const far = slotOfDay(400);
  let n0 = far;
  let n50 = far;
  const create0 = await run("POST /bookings, 0 in service", {
    apiKey: bigKey,
    connections: 1,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(empty, n0++) }),
  });
  const create50k = await run("POST /bookings, 50k in service", {
    apiKey: bigKey,
    connections: 1,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(big, n50++) }),
  });

  // Double-booking storm: 200 concurrent creates for one slot of a capacity-2 service.
  const stormService = (await call(key, "POST", "/services", service("Storm", 2))).body.id;
  t = performance.now();
  const storm = await Promise.all(
    Array.from({ length: 200 }, (_, i) => call(key, "POST", "/bookings", bookingBody(stormService, 10, i))),
  );
  const stormMs = Math.round(performance.now() - t);
  const stormWins = storm.filter((r) => r.status === 201).length;

  // Two tenants under list load on two shards vs on one (scripts/bench/shards.ts).
  log("bench: two tenants, two shards vs one");
  const shards = await twoShardsVsOne(server, seconds, PAIR_ROUNDS);

  // E-mails to customers: a create's p50 with them on over off, side by side.
  log("bench: POST /bookings, e-mails on vs off");
  const emails = await emailsOnVsOff(server, EMAIL_PAIRS);

  const floors = results.map((r) => r.floorRps);
  const floorRps = Math.round(floors.reduce((sum, x) => sum + x, 0) / floors.length);
  const devMs = await devServerFirstResponse();

  const ratio = (r: ScenarioResult) => Math.round((r.rps / health.rps) * 100) / 100;
  const ratioToFloor = (r: Measured) => Math.round((r.rps / r.floorRps) * 1000) / 1000;
  const byName = (name: string) => results.find((r) => r.name === name) as Measured;
  const lastVsFirst = byName("GET /bookings last page").p50 / Math.max(0.01, byName("GET /bookings page 1").p50);
  // Targets as multiples of the floor (the one-line Worker) measured above.
  const availability1 = byName("GET availability 1 day");
  const targets = {
    healthAtLeast080xBareFloor: healthOverBare >= 0.8,
    listAtLeast026xFloor: ratioToFloor(byName("GET /bookings?limit=20")) >= 0.26,
    lastPageAtLeast020xFloor: ratioToFloor(byName("GET /bookings last page")) >= 0.2,
    oneDayAvailabilityAtLeast0065xFloor: ratioToFloor(availability1) >= 0.065,
    sevenDayAvailabilityP50Within2xOneDay: byName("GET availability 7 days").p50 <= 2 * Math.max(availability1.p50, 1),
    createDistinctAtLeast0075xFloor: ratioToFloor(byName("POST /bookings distinct slots, 20 conns")) >= 0.075,
    providerCreateAtLeast060xPlain: providerCreate.rps >= 0.6 * plainCreate.rps,
    personAndRoomCreateAtLeast050xPlain: providerAndRoom.rps >= 0.5 * plainCreate.rps,
    visitAtLeast030xPlainCreate: allCreated(visit) && allCreated(plainCreate) && visit.rps >= 0.3 * plainCreate.rps,
    seriesP50Within4xPlainCreate:
      allCreated(series) && allCreated(plainCreate) && series.p50 <= 4 * Math.max(plainCreate.p50, 1),
    refusedSeriesP50Within4xRefusedCreate:
      refusals.non409 === 0 && refusals.seriesRejectOverCreate <= 4 && refusals.seriesSkipOverCreate <= 4,
    twentyProvidersWeekP50Within2xOne:
      weekOfTwenty.rps > 0 && weekOfOne.rps > 0 && weekOfTwenty.p50 <= 2 * Math.max(weekOfOne.p50, 1),
    listsAtLeast085xTheirStatements: listFloors.every((l) => l.pairs.median >= 0.85),
    createP50At50kWithin120pct: create50k.p50 <= 1.2 * Math.max(create0.p50, 1),
    lastPageWithin150pctOfFirst: lastVsFirst <= 1.5,
    bundleAtMost250KBGzip: server.bundle.gzip <= 250 * 1024,
    stormExactlyCapacity: stormWins === 2,
    createP50WithEmailsWithin105pctOfWithout: emails.p50Ratio <= 1.05,
    busyAvailabilityWithin120pct: calendars.busyOverNone.median >= 1 / 1.2,
    unchangedCalendarReadOneRequest: calendars.unchangedRead.requestsPerRead === 1,
    dayTimesHtmlAtLeast080xJson: dayTimesPairs.median >= 0.8,
  };
  const report = {
    date: new Date().toISOString(),
    secondsPerScenario: seconds,
    node: process.version,
    floor: { meanRps: floorRps, minRps: Math.min(...floors), maxRps: Math.max(...floors) },
    scenarios: results.map((r) => ({ ...r, ratioToFloor: ratioToFloor(r), ratioToHealth: ratio(r) })),
    seedCreatesPerSecond: seedRate,
    create: {
      p50At0: create0.p50,
      p50At50k: create50k.p50,
      ratio: Math.round((create50k.p50 / Math.max(create0.p50, 1)) * 100) / 100,
    },
    lastPageVsFirstP50: Math.round(lastVsFirst * 100) / 100,
    /** Two tenants' list loads together, on two shards over on one (no target: scripts/bench/shards.ts). */
    twoShardsOverOne: shards,
    /** `/health` (mean of the runs before and after) over the one-line Worker without assets, between them. */
    health: {
      rps: healthVsBare.a.map((r) => r.rps),
      bareFloorRps: healthVsBare.b.map((r) => r.rps),
      ratios: healthVsBare.ratios,
      overBareFloor: healthOverBare,
    },
    /** Each list's requests/s over a Worker that sends only its statements, measured beside it. */
    listsOverTheirStatements: Object.fromEntries(
      listFloors.map((l) => [l.name, { median: l.pairs.median, ratios: l.pairs.ratios }]),
    ),
    /** A week's availability, 20 providers over 1: p50 and requests/s. */
    twentyProvidersOverOne: {
      p50: Math.round((weekOfTwenty.p50 / Math.max(weekOfOne.p50, 1)) * 100) / 100,
      rps: Math.round((weekOfTwenty.rps / Math.max(weekOfOne.rps, 1)) * 100) / 100,
    },
    /** A person's calendar feed of 1,000 bookings: its size, p50 and requests/s over `/health`. */
    feedOf1000: { bytes: feedBytes, p50: feed.p50, rps: feed.rps, overHealth: ratio(feed) },
    /** Requests/s of creates that claim other calendars over a plain create, in the same run. */
    claimsOverPlain: {
      providerAndRoom: Math.round((providerAndRoom.rps / Math.max(plainCreate.rps, 1)) * 100) / 100,
      teamOfTwo: Math.round((teamOfTwo.rps / Math.max(plainCreate.rps, 1)) * 100) / 100,
    },
    /**
     * A 3-segment visit's requests/s, and a 12-occurrence weekly series' p50, over a plain create's
     * in the same run; `non201` counts their answers of any other status (0 for the ratios to count).
     */
    visitAndSeriesOverPlain: {
      visitRps: Math.round((visit.rps / Math.max(plainCreate.rps, 1)) * 100) / 100,
      seriesP50: Math.round((series.p50 / Math.max(plainCreate.p50, 1)) * 100) / 100,
      non201: { plainCreate: plainCreate.unexpected, visit: visit.unexpected, series: series.unexpected },
    },
    /**
     * A refused weekly series of 52 over a refused create, p50 on one connection, on a service of
     * 50 people and 5 rooms with one room closed then: the median of the rounds' ratios.
     */
    refusals,
    /** A day's times as the booking page's HTML over the keyed availability JSON of the same day, side by side. */
    dayTimesHtmlOverJson: {
      median: dayTimesPairs.median,
      ratios: dayTimesPairs.ratios,
      htmlRps: dayTimesPairs.a.map((r) => r.rps),
      jsonRps: dayTimesPairs.b.map((r) => r.rps),
    },
    /** Requests/s of each MCP tool call over its REST request, measured one after the other. */
    mcpOverRest: {
      findAvailability: Math.round((mcpFind.rps / Math.max(availabilityDay.rps, 1)) * 100) / 100,
      bookAppointment: Math.round((mcpBook.rps / Math.max(plainCreate.rps, 1)) * 100) / 100,
    },
    storm: {
      requests: 200,
      capacity: 2,
      succeeded: stormWins,
      conflicts: storm.filter((r) => r.status === 409).length,
      wallMs: stormMs,
    },
    /** A create's p50 (ms) for a business with e-mails on and one with them off, requests in alternation. */
    emailsOnOverOff: emails,
    /** A person's own calendars: 1-day availability with 500 busy times over none; an unchanged read. */
    calendars,
    bundle: server.bundle,
    devServerFirstResponseMs: devMs,
    targets,
  };

  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    console.log("| scenario | conns | req/s | p50 ms | p99 ms | floor beside, req/s | × floor | × /health | non-2xx |");
    console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    console.log(
      `| one-line Worker (the floor: mean, min–max) | 10 | ${floorRps} | | | ${Math.min(...floors)}–${Math.max(...floors)} | 1 | ${Math.round((floorRps / health.rps) * 100) / 100} | 0 |`,
    );
    for (const r of report.scenarios)
      console.log(
        `| ${r.name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.floorRps} | ${r.ratioToFloor} | ${r.ratioToHealth} | ${r.non2xx} |`,
      );
    console.log(
      `\ncreate p50: ${create0.p50} ms with 0 bookings, ${create50k.p50} ms with 50,000 (×${report.create.ratio})`,
    );
    console.log(`last page vs first page p50: ×${report.lastPageVsFirstP50}`);
    console.log(
      `/health over a one-line Worker without assets, ${PAIR_ROUNDS} rounds side by side: ${healthVsBare.a.map((r) => r.rps).join("/")} over ${healthVsBare.b.map((r) => r.rps).join("/")} req/s, ×${healthVsBare.ratios.join(", ×")}: median ×${healthOverBare}`,
    );
    console.log(
      `lists over their statements alone, req/s, median of ${PAIR_ROUNDS} rounds side by side: ${Object.entries(
        report.listsOverTheirStatements,
      )
        .map(([name, r]) => `${name} ×${r.median} (×${r.ratios.join(", ×")})`)
        .join("; ")}`,
    );
    console.log(
      `a week's availability, 20 providers over 1: p50 ×${report.twentyProvidersOverOne.p50}, req/s ×${report.twentyProvidersOverOne.rps}`,
    );
    console.log(
      `over a plain create, req/s: person + room ×${report.claimsOverPlain.providerAndRoom}, team of 2 ×${report.claimsOverPlain.teamOfTwo}`,
    );
    console.log(
      `over a plain create (${plainCreate.rps} req/s, p50 ${plainCreate.p50} ms, ${plainCreate.unexpected} non-201): ${VISIT_MINUTES.length}-segment visit req/s ×${report.visitAndSeriesOverPlain.visitRps} (target ≥ 0.3×, ${visit.unexpected} non-201), weekly series of ${SERIES_COUNT} p50 ×${report.visitAndSeriesOverPlain.seriesP50} (target ≤ 4×, ${series.unexpected} non-201)`,
    );
    console.log(
      `refused on 50 people + 5 rooms (one closed), p50 ms per round (create / series of ${REFUSED_SERIES_COUNT} reject / skip): ${refusals.rounds.map((r) => `${r.create}/${r.seriesReject}/${r.seriesSkip}`).join(", ")}; series over create: reject ×${refusals.seriesRejectOverCreate}, skip ×${refusals.seriesSkipOverCreate} (target ≤ 4×, ${refusals.non409} non-409)`,
    );
    console.log(
      `a day's times as HTML over the keyed JSON of the same day, ${PAIR_ROUNDS} rounds side by side: ${dayTimesPairs.a.map((r) => r.rps).join("/")} over ${dayTimesPairs.b.map((r) => r.rps).join("/")} req/s: median ×${dayTimesPairs.median} (target ≥ 0.8×)`,
    );
    console.log(
      `MCP over REST, req/s: find_availability ×${report.mcpOverRest.findAvailability}, book_appointment ×${report.mcpOverRest.bookAppointment}`,
    );
    console.log(
      `a person's feed of 1,000 bookings: ${Math.round(feedBytes / 1024)} KB, p50 ${feed.p50} ms, ${feed.rps} req/s (×${ratio(feed)} /health)`,
    );
    console.log(
      `connected calendars: 1-day availability with 500 busy times over none, req/s median ×${calendars.busyOverNone.median} (×${calendars.busyOverNone.ratios.join(", ×")}; target ≥ 0.83×, i.e. ≤ 1.2× the time); an unchanged 1,000-event calendar read: ${calendars.unchangedRead.requestsPerRead} request(s), p50 ${calendars.unchangedRead.p50Ms} ms`,
    );
    console.log(`storm: ${stormWins} of 200 succeeded (capacity 2), ${report.storm.conflicts} × 409, ${stormMs} ms`);
    console.log(emailsLine(emails));
    console.log(shardsLine(shards));
    console.log(
      `bundle: ${server.bundle.raw} B raw, ${server.bundle.gzip} B gzip; dev server first response: ${devMs} ms`,
    );
    console.log(
      `targets: ${Object.entries(targets)
        .map(([k, v]) => `${k} ${v ? "yes" : "NO"}`)
        .join(", ")}`,
    );
  }
  mkdirSync(path.join(root, "bench"), { recursive: true });
  writeFileSync(path.join(root, "bench", "results.json"), `${JSON.stringify(report, null, 2)}\n`);
} finally {
  await server.dispose();
  await floorServer.dispose();
}

/** The e-mails pair in one line. */
function emailsLine(pair: EmailsPair): string {
  return `create with e-mails on vs off, ${pair.requests} each in alternation on 1 connection: p50 ${pair.p50On} vs ${pair.p50Off} ms (×${pair.p50Ratio}, target ≤ 1.05), p90 ${pair.p90On} vs ${pair.p90Off} ms; ${pair.sent} e-mails sent for ${pair.booked} bookings`;
}

/** Every answer of a run that expects one status had it, and nothing failed to answer. */
function allCreated(r: ScenarioResult): boolean {
  return r.unexpected === 0 && r.errors === 0 && r.requests > 0;
}

/** Checks one create before its scenario: a 201 with `bookings` bookings, or the run stops with its answer. */
async function expectCreated(what: string, answer: ReturnType<typeof callAt>, bookings: number) {
  const { status, body } = await answer;
  const got = (body as unknown as { bookings?: unknown[] }).bookings?.length;
  if (status !== 201 || got !== bookings)
    throw new Error(
      `${what} answered ${status} with ${got} bookings (expected 201 with ${bookings}): ${JSON.stringify(body)}`,
    );
}

/** The body of an MCP `tools/call` (POST /api/v1/mcp). */
function mcpToolCall(name: string, args: Record<string, unknown>): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
}

/** Milliseconds from `npm run dev` (fresh state) to the first `/health` answer. */
async function devServerFirstResponse(): Promise<number> {
  const state = mkdtempSync(path.join(tmpdir(), "booking-dev-"));
  const port = 8790 + Math.floor(Math.random() * 100);
  const started = performance.now();
  const child = spawn("npm", ["run", "--silent", "dev", "--", "--port", String(port), "--persist-to", state], {
    cwd: root,
    stdio: "ignore",
    detached: true,
  });
  try {
    for (let waited = 0; waited < 60_000; waited += 100) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
        if (res.ok) return Math.round(performance.now() - started);
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
    return -1;
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    rmSync(state, { recursive: true, force: true });
  }
}
