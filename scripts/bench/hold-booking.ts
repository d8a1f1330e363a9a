/**
 * Booking a hold (`POST /bookings` with `holdId`) against a plain create, on two builds of the
 * API side by side: this tree and a baseline revision (`npm run bench -- --baseline <rev>`). Each
 * round books fresh holds on each build in turn, one connection each, so the p50s compared were
 * measured seconds apart on the same machine; the plain creates beside them show how far the
 * machine itself moved. Each round also creates as many customers (`POST /customers`), a write
 * the Worker makes on its own (no calendar).
 */
import { checkoutAt } from "./baseline.ts";
import { runScenario } from "./load.ts";
import { bookingBody, call, service, slotOfDay } from "./seed.ts";
import { startBenchServer } from "./server.ts";

/** Holds booked per round and build: under the 50 live holds one API key may have. */
export const HOLDS_PER_ROUND = 40;

/** A build under test: its URL, and one key of a business with one 5-minute service. */
export type Build = { name: string; url: string; key: string; serviceId: string; next: number };

/** A business with a 5-minute service open all day on `url`, ready for `measureHoldBookings`. */
export async function prepareBuild(name: string, url: string, key: string): Promise<Build> {
  const serviceId = (await call(url, key, "POST", "/services", service(`Hold desk ${name}`))).body.id;
  return { name, url, key, serviceId, next: slotOfDay(3) };
}

/** One round's p50s and means (ms) on one build. */
export type BuildRound = {
  holdBooking: number;
  plainCreate: number;
  customerCreate: number;
  holdBookingMean: number;
  plainCreateMean: number;
  customerCreateMean: number;
  non201: number;
};

/** Places HOLDS_PER_ROUND holds on fresh slots of the build (not measured); answers their ids. */
async function placeHolds(build: Build): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < HOLDS_PER_ROUND; i++) {
    const slot = JSON.parse(bookingBody(build.serviceId, build.next++)) as Record<string, string>;
    const placed = await call(build.url, build.key, "POST", "/holds", {
      serviceId: build.serviceId,
      startTime: slot.startTime,
      endTime: slot.endTime,
      ttlSeconds: 600,
    });
    if (placed.status !== 201) throw new Error(`POST /holds answered ${placed.status} on ${build.name}`);
    ids.push(placed.body.id);
  }
  return ids;
}

/** Customers created so far on any build: each e-mail new (the creates above use `customer<n>@`). */
let customersMade = 0;

/** One round on one build: its holds booked, then as many plain creates and customer creates, each on one connection. */
async function round(build: Build): Promise<BuildRound> {
  const holds = await placeHolds(build);
  // The load tool builds one request before the first it sends (scripts/bench/load.ts): that
  // first build only names the method and path, so it does not take a hold of its own.
  let built = 0;
  const booked = await runScenario(`${build.name}: booking a hold`, {
    url: build.url,
    apiKey: build.key,
    seconds: 0,
    connections: 1,
    amount: HOLDS_PER_ROUND,
    expectStatus: 201,
    request: () => {
      const h = Math.max(0, built++ - 1);
      return {
        method: "POST",
        path: "/api/v1/bookings",
        body: JSON.stringify({ holdId: holds[h], customerName: `Held ${h}`, customerEmail: `held${h}@example.com` }),
      };
    },
  });
  const plain = await runScenario(`${build.name}: plain create`, {
    url: build.url,
    apiKey: build.key,
    seconds: 0,
    connections: 1,
    amount: HOLDS_PER_ROUND,
    expectStatus: 201,
    request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(build.serviceId, build.next++) }),
  });
  const customers = await runScenario(`${build.name}: customer create`, {
    url: build.url,
    apiKey: build.key,
    seconds: 0,
    connections: 1,
    amount: HOLDS_PER_ROUND,
    expectStatus: 201,
    request: () => {
      const n = customersMade++;
      return {
        method: "POST",
        path: "/api/v1/customers",
        body: JSON.stringify({ name: `Walk-in ${n}`, email: `walk-in${n}@example.com` }),
      };
    },
  });
  const unexpected = [booked, plain, customers].reduce((sum, r) => sum + (r.unexpected ?? 0) + r.errors, 0);
  return {
    holdBooking: booked.p50,
    plainCreate: plain.p50,
    customerCreate: customers.p50,
    holdBookingMean: booked.mean,
    plainCreateMean: plain.mean,
    customerCreateMean: customers.mean,
    non201: unexpected,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Each build's rounds, and the medians of its p50s and of its means. */
export type HoldBookingComparison = {
  builds: {
    name: string;
    rounds: BuildRound[];
    holdBookingP50: number;
    plainCreateP50: number;
    customerCreateP50: number;
    holdBookingMean: number;
    plainCreateMean: number;
    customerCreateMean: number;
  }[];
};

/** `rounds` rounds, the builds in turn within each round (the baseline first). */
export async function measureHoldBookings(builds: Build[], rounds: number): Promise<HoldBookingComparison> {
  const measured = builds.map(() => [] as BuildRound[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, build] of builds.entries()) measured[i]?.push(await round(build));
  }
  return {
    builds: builds.map((build, i) => {
      const list = measured[i] ?? [];
      return {
        name: build.name,
        rounds: list,
        holdBookingP50: median(list.map((x) => x.holdBooking)),
        plainCreateP50: median(list.map((x) => x.plainCreate)),
        customerCreateP50: median(list.map((x) => x.customerCreate)),
        holdBookingMean: median(list.map((x) => x.holdBookingMean)),
        plainCreateMean: median(list.map((x) => x.plainCreateMean)),
        customerCreateMean: median(list.map((x) => x.customerCreateMean)),
      };
    }),
  };
}

/**
 * `npm run bench -- --baseline <rev> [--rounds N]`: the revision's build and this tree's, each on
 * its own workerd with fresh storage, measured in turn for `rounds` rounds; prints each round's
 * p50s and the medians.
 */
export async function compareHoldBookings(rev: string, rounds: number): Promise<HoldBookingComparison> {
  const sources = checkoutAt(rev);
  const servers = [await startBenchServer({ root: sources.root }), await startBenchServer()];
  try {
    const [before, after] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const builds = [
      await prepareBuild(rev, before.url, await before.createAccount("Baseline")),
      await prepareBuild("this tree", after.url, await after.createAccount("This tree")),
    ];
    const result = await measureHoldBookings(builds, rounds);
    for (const build of result.builds) {
      const each = build.rounds.map((r) => `${r.holdBooking}/${r.plainCreate}/${r.customerCreate}`).join(", ");
      const non201 = build.rounds.reduce((sum, r) => sum + r.non201, 0);
      process.stderr.write(
        `${build.name}: booking a hold p50 ${build.holdBookingP50} ms (mean ${build.holdBookingMean}), plain create p50 ${build.plainCreateP50} ms (mean ${build.plainCreateMean}), customer create p50 ${build.customerCreateP50} ms (mean ${build.customerCreateMean}); rounds' p50s, hold/plain/customer: ${each}; ${non201} non-201\n`,
      );
    }
    return result;
  } finally {
    for (const server of servers) await server.dispose();
    sources.dispose();
  }
}
