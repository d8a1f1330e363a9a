/**
 * The one poll of the tests, for work finished after the answer (a queued delivery, a sent
 * message, an alarm that fires by itself). Plain TypeScript with no runtime imports but Vitest's,
 * so the Workers tests and the Node suites (test/e2e) share it.
 */
import { expect } from "vitest";

/**
 * Calls `probe` every `everyMs` until it answers a value (anything but `undefined`) and returns
 * it; fails the test, naming `what`, when `ms` pass first.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  ms = 10_000,
  everyMs = 50,
): Promise<T> {
  for (const started = Date.now(); Date.now() - started < ms; ) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return expect.fail(`timed out after ${ms} ms waiting for ${what}`);
}
