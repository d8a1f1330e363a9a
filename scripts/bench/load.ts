/** Load generation for the benchmark: autocannon scenarios reduced to rates and percentiles. */
import autocannon from "autocannon";

export type ScenarioResult = {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  /** The mean latency (ms, two decimals): finer than the percentiles' whole milliseconds. */
  mean: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** With `expectStatus`: the answers of any other status (counted, not measured as successes). */
  unexpected?: number;
};

type Request = { method?: string; path: string; body?: string; headers?: Record<string, string> };

export type ScenarioOptions = {
  url: string;
  apiKey?: string;
  seconds: number;
  connections: number;
  /** Send exactly this many requests instead of loading for `seconds`. */
  amount?: number;
  /** Seconds of the same load first, not counted: JIT, caches and connections warm (default 1). */
  warmupSeconds?: number;
  /** The status every answer should have (e.g. 201): others are counted in `unexpected`. */
  expectStatus?: number;
  /** A fixed request, or one built per request (for distinct booking slots). */
  request: Request | (() => Request);
};

/**
 * Runs one autocannon scenario, after an uncounted warm-up of the same load, and reduces it to
 * requests/s and latency percentiles (ms).
 */
export async function runScenario(name: string, options: ScenarioOptions): Promise<ScenarioResult> {
  const warmup = options.amount ? 0 : (options.warmupSeconds ?? 1);
  if (warmup > 0) await load({ ...options, seconds: warmup });
  const result = await load(options);
  return {
    name,
    connections: options.connections,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    mean: Math.round(result.latency.average * 100) / 100,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(options.expectStatus === undefined
      ? {}
      : {
          unexpected: Object.entries(result.statusCodeStats ?? {})
            .filter(([status]) => status !== String(options.expectStatus))
            .reduce((sum, [, stats]) => sum + (stats.count ?? 0), 0),
        }),
  };
}

function load(options: ScenarioOptions) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const build = typeof options.request === "function" ? options.request : () => options.request as Request;
  const first = build();
  return autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds }),
    headers,
    requests: [
      {
        method: (first.method ?? "GET") as "GET",
        path: first.path,
        setupRequest: (req) => {
          const next = build();
          return {
            ...req,
            method: (next.method ?? "GET") as "GET",
            path: next.path,
            body: next.body,
            headers: { ...headers, ...next.headers },
          };
        },
      },
    ],
  });
}
