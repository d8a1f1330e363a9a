/**
 * Ratios of two loads measured in alternation. On a shared 2-core machine the throughput of the
 * same Worker drifts by a third within a run; a ratio of two measurements taken minutes apart
 * carries that drift. Alternating A, B, A, B, … a few seconds apart and taking the median of the
 * per-round ratios keeps each ratio to two measurements taken side by side.
 */
import { runScenario, type ScenarioOptions, type ScenarioResult } from "./load.ts";

export type Alternation = {
  a: ScenarioResult[];
  b: ScenarioResult[];
  /** Each round's requests/s of A over B. */
  ratios: number[];
  /** The median of `ratios`, two decimals. */
  median: number;
};

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The median of a non-empty list (the mean of the middle two for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Measures `a` then `b`, `rounds` times over, and the median of their per-round ratios. */
export async function alternate(
  rounds: number,
  a: { name: string } & ScenarioOptions,
  b: { name: string } & ScenarioOptions,
): Promise<Alternation> {
  const result: Alternation = { a: [], b: [], ratios: [], median: 0 };
  for (let i = 0; i < rounds; i++) {
    const ra = await runScenario(a.name, a);
    const rb = await runScenario(b.name, b);
    result.a.push(ra);
    result.b.push(rb);
    result.ratios.push(round2(ra.rps / Math.max(rb.rps, 1)));
  }
  result.median = round2(median(result.ratios));
  return result;
}
