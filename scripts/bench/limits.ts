/**
 * What booking limits may cost, side by side in one run: this bundle and an earlier commit's
 * (`--baseline`, default BASELINE: the last commit before the slot calendar was made faster and
 * limits were added) served at once, each with the same day of three people
 * (scripts/bench/day-of-three.ts).
 *
 * - The day's slot calendar with every limit set, on this bundle, over the same day without
 *   limits on the earlier bundle: requests/s, target ≥ 1.25×. The same day without limits on
 *   this bundle is measured beside it too (what the limits cost on this bundle).
 * - A create with every limit set over one without, both on this bundle, one connection: p50
 *   and mean latency, target ≤ 1.1× of the mean (p50s are whole milliseconds, too coarse a step
 *   at this size).
 *
 * Each pair alternates three rounds (scripts/bench/pairs.ts); a ratio is the median of the rounds'.
 */
import { checkoutAt } from "./baseline.ts";
import { dayOfThree, dayPath, THREE_DAY } from "./day-of-three.ts";
import { runScenario, type ScenarioOptions, type ScenarioResult } from "./load.ts";
import { type Alternation, alternate } from "./pairs.ts";
import { bookingBody, slotOfDay } from "./seed.ts";
import { type BenchServer, startBenchServer } from "./server.ts";

/** The last commit before the faster slot calendar and booking limits: the slot calendar to beat. */
export const BASELINE = "081b10b";
const ROUNDS = 3;
const round2 = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

export type LimitsReport = {
  baseline: string;
  /** Requests/s of the limited day on this bundle over the unlimited day on the baseline. */
  limitedOverBaseline: Alternation;
  /** Requests/s of the unlimited day on this bundle over the same on the baseline. */
  plainOverBaseline: Alternation;
  /**
   * A create with every limit over one without, one connection, each round side by side: p50s,
   * and mean latencies (the target: p50s are whole milliseconds, a step of 7 % at 15 ms).
   */
  create: {
    limited: ScenarioResult[];
    plain: ScenarioResult[];
    p50Ratios: number[];
    p50Median: number;
    meanRatios: number[];
    meanMedian: number;
  };
  targets: { limitedDayAtLeast125xBaseline: boolean; limitedCreateWithin110pct: boolean };
};

/** Runs the pairs; `seconds` per measurement. */
export async function limitsBench(seconds: number, baseline = BASELINE): Promise<LimitsReport> {
  const earlier = checkoutAt(baseline);
  const servers: BenchServer[] = [];
  try {
    const now = await startBenchServer();
    servers.push(now);
    const before = await startBenchServer({ root: earlier.root });
    servers.push(before);
    const key = await now.createAccount("Limits");
    const oldKey = await before.createAccount("Limits");
    const limited = await dayOfThree(now.url, key, "Limited", true);
    const plain = await dayOfThree(now.url, key, "Plain", false);
    const old = await dayOfThree(before.url, oldKey, "Plain", false);
    const read = (url: string, apiKey: string, id: string, name: string) => ({
      name,
      url,
      apiKey,
      seconds,
      connections: 10,
      expectStatus: 200,
      request: { path: dayPath(id) },
    });
    const oldDay = read(before.url, oldKey, old, `day without limits, ${earlier.commit}`);
    const limitedOverBaseline = await alternate(ROUNDS, read(now.url, key, limited, "day with limits"), oldDay);
    const plainOverBaseline = await alternate(ROUNDS, read(now.url, key, plain, "day without limits"), oldDay);

    // Creates on distinct slots of later days (the read day keeps its bookings), one connection.
    let n = slotOfDay(THREE_DAY + 10);
    const create = (id: string, name: string): ScenarioOptions & { name: string } => ({
      name,
      url: now.url,
      apiKey: key,
      seconds,
      connections: 1,
      expectStatus: 201,
      request: () => ({ method: "POST", path: "/api/v1/bookings", body: bookingBody(id, n++) }),
    });
    const creates = {
      limited: [] as ScenarioResult[],
      plain: [] as ScenarioResult[],
      p50Ratios: [] as number[],
      meanRatios: [] as number[],
    };
    for (let i = 0; i < ROUNDS; i++) {
      const a = await runScenario("create with limits", create(limited, "create with limits"));
      const b = await runScenario("create without limits", create(plain, "create without limits"));
      creates.limited.push(a);
      creates.plain.push(b);
      creates.p50Ratios.push(round2(a.p50 / Math.max(b.p50, 0.1)));
      creates.meanRatios.push(round2(a.mean / Math.max(b.mean, 0.1)));
    }
    const p50Median = round2(median(creates.p50Ratios));
    const meanMedian = round2(median(creates.meanRatios));
    return {
      baseline: earlier.commit,
      limitedOverBaseline,
      plainOverBaseline,
      create: { ...creates, p50Median, meanMedian },
      targets: {
        limitedDayAtLeast125xBaseline: limitedOverBaseline.median >= 1.25,
        limitedCreateWithin110pct:
          meanMedian <= 1.1 && [...creates.limited, ...creates.plain].every((r) => r.unexpected === 0),
      },
    };
  } finally {
    for (const server of servers) await server.dispose();
    earlier.dispose();
  }
}

/** The report as lines for the terminal. */
export function limitsLines(r: LimitsReport): string[] {
  const rps = (a: Alternation) => `${a.a.map((x) => x.rps).join("/")} over ${a.b.map((x) => x.rps).join("/")} req/s`;
  return [
    `1-day slot calendar of 3 people, with every limit, over ${r.baseline} without: ${rps(r.limitedOverBaseline)}, ×${r.limitedOverBaseline.ratios.join(", ×")}: median ×${r.limitedOverBaseline.median} (target ≥ 1.25×)`,
    `the same day without limits over ${r.baseline}: ${rps(r.plainOverBaseline)}, median ×${r.plainOverBaseline.median}`,
    `create with every limit over without (1 connection): p50 ${r.create.limited.map((x) => x.p50).join("/")} over ${r.create.plain.map((x) => x.p50).join("/")} ms (median ×${r.create.p50Median}); mean ${r.create.limited.map((x) => x.mean).join("/")} over ${r.create.plain.map((x) => x.mean).join("/")} ms, ×${r.create.meanRatios.join(", ×")}: median ×${r.create.meanMedian} (target ≤ 1.1×)`,
    `targets: ${Object.entries(r.targets)
      .map(([k, v]) => `${k} ${v ? "yes" : "NO"}`)
      .join(", ")}`,
  ];
}
