/**
 * `npm run bench -- --profile`: CPU profiles of the API's isolate under load, one per kind of
 * request (`/health`, a list, one day's availability, a create, a 3-segment visit, a weekly series
 * of 12, a week's availability of a service with 1 and with 20 providers, a create and a weekly series
 * of 52 refused by a closed room of a service with 50 people and 5 rooms, one day and one week of a
 * service of three people: `day-3-people`, `week-3-people`, and that day with every limit set:
 * `day-3-limited`), recorded through workerd's
 * inspector. Saves bench/out/<kind>.cpuprofile (open in Chrome DevTools' Performance panel) and
 * prints where the sampled time goes, by function (self time). `-- --only a,b` profiles those kinds.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dayOfThree, dayPath, weekPath } from "./day-of-three.ts";
import { type CpuProfile, connectInspector, selfTimeByFunction } from "./inspector.ts";
import { runScenario } from "./load.ts";
import { refusalService } from "./refusals.ts";
import {
  bookingBody,
  call,
  provider,
  seedBookings,
  seriesBody,
  service,
  slotOfDay,
  slotTime,
  VISIT_MINUTES,
  visitBody,
} from "./seed.ts";
import { API_WORKER, startBenchServer } from "./server.ts";

const INSPECTOR_PORT = 9240;

export async function profile(options: { seconds: number; outDir: string; only?: string[] }) {
  const server = await startBenchServer({ inspectorPort: INSPECTOR_PORT });
  const inspector = await connectInspector(INSPECTOR_PORT, API_WORKER);
  try {
    const key = await server.createAccount("Profile Salon");
    const listed = (await call(server.url, key, "POST", "/services", service("Listed"))).body.id;
    await seedBookings(server.url, listed, 0, 10_000);
    let slot = slotOfDay(100);
    const parts: string[] = [];
    for (const [i, minutes] of VISIT_MINUTES.entries())
      parts.push(
        (await call(server.url, key, "POST", "/services", { ...service(`Visit part ${i}`), durationMinutes: minutes }))
          .body.id,
      );
    const weekly = (await call(server.url, key, "POST", "/services", service("Weekly"))).body.id;
    const wanted = (kind: string) => options.only === undefined || options.only.includes(kind);
    const one = wanted("week-1-person") ? await serviceOfProviders(server.url, key, 1) : "";
    const twenty = wanted("week-20-people") ? await serviceOfProviders(server.url, key, 20) : "";
    const refusals =
      wanted("refused-create") || wanted("refused-series") ? await refusalService(server.url, key) : undefined;
    // One day of three people (scripts/bench/day-of-three.ts), and the same with every limit set.
    const three = wanted("day-3-people") || wanted("week-3-people");
    const ofThree = three ? await dayOfThree(server.url, key, "Three", false) : "";
    const limited = wanted("day-3-limited") ? await dayOfThree(server.url, key, "Three limited", true) : "";
    let visitN = 0;
    let seriesN = 0;
    const kinds = [
      { kind: "health", request: () => ({ path: "/api/v1/health" }) },
      { kind: "list", request: () => ({ path: "/api/v1/bookings?limit=20" }) },
      {
        kind: "availability",
        request: () => ({
          path: `/api/v1/services/${listed}/availability?from=${slotTime(slotOfDay(3))}&to=${slotTime(slotOfDay(4))}`,
        }),
      },
      {
        kind: "create",
        request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(listed, slot++) }),
      },
      {
        kind: "visit",
        request: () => ({ method: "POST", path: "/api/v1/appointments", body: visitBody(parts, visitN++) }),
      },
      {
        kind: "series",
        request: () => ({ method: "POST", path: "/api/v1/series", body: seriesBody(weekly, seriesN++) }),
      },
      {
        kind: "week-1-person",
        request: () => ({ path: `/api/v1/services/${one}/availability?from=${slotTime(0)}&to=${slotTime(2000)}` }),
      },
      {
        kind: "week-20-people",
        request: () => ({
          path: `/api/v1/services/${twenty}/availability?from=${slotTime(0)}&to=${slotTime(2000)}`,
        }),
      },
      {
        kind: "refused-create",
        request: () => ({ method: "POST", path: "/api/v1/bookings", body: refusals?.create }),
      },
      {
        kind: "refused-series",
        request: () => ({ method: "POST", path: "/api/v1/series", body: refusals?.seriesReject }),
      },
      { kind: "day-3-people", request: () => ({ path: dayPath(ofThree) }) },
      { kind: "week-3-people", request: () => ({ path: weekPath(ofThree) }) },
      { kind: "day-3-limited", request: () => ({ path: dayPath(limited) }) },
    ].filter(({ kind }) => wanted(kind));
    mkdirSync(options.outDir, { recursive: true });
    await inspector.send("Profiler.enable");
    await inspector.send("Profiler.setSamplingInterval", { interval: 100 });
    const summary: Record<string, { rps: number; unexpected?: number; top: { fn: string; share: number }[] }> = {};
    for (const { kind, request } of kinds) {
      await inspector.send("Profiler.start");
      const result = await runScenario(kind, {
        url: server.url,
        apiKey: key,
        seconds: options.seconds,
        connections: 10,
        // Creates answer 201, refusals 409, reads 200: any other answer is counted, not profiled unnoticed.
        expectStatus: kind.startsWith("refused")
          ? 409
          : kind === "create" || kind === "visit" || kind === "series"
            ? 201
            : 200,
        request,
      });
      const { profile: cpu } = await inspector.send<{ profile: CpuProfile }>("Profiler.stop");
      writeFileSync(path.join(options.outDir, `${kind}.cpuprofile`), JSON.stringify(cpu));
      summary[kind] = { rps: result.rps, unexpected: result.unexpected, top: selfTimeByFunction(cpu) };
    }
    for (const [kind, { rps, unexpected, top }] of Object.entries(summary)) {
      const other = unexpected ? `, ${unexpected} answers of another status` : "";
      console.log(`\n${kind} (${rps} req/s while profiled${other}): self time by function`);
      for (const { fn, share } of top) console.log(`  ${String(share).padStart(5)} %  ${fn}`);
    }
    writeFileSync(path.join(options.outDir, "profile-summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    inspector.close();
    await server.dispose();
  }
}

/**
 * A service of `people` providers, each with 50 bookings in its first week (as the bench's
 * "GET availability 7 days, 20 providers" row): every person's calendar has claims to read.
 */
async function serviceOfProviders(url: string, key: string, people: number): Promise<string> {
  const ids: string[] = [];
  for (let i = 0; i < people; i++)
    ids.push((await call(url, key, "POST", "/providers", provider(`Week ${i}`))).body.id);
  const id = (await call(url, key, "POST", "/services", service(`Week of ${people}`, 1, ids))).body.id;
  const slots = Array.from({ length: 50 * people }, (_, i) => (i * 37) % 2000);
  for (let i = 0; i < slots.length; i += 10)
    await Promise.all(
      slots.slice(i, i + 10).map((n, j) => call(url, key, "POST", "/bookings", bookingBody(id, n, i + j))),
    );
  return id;
}
