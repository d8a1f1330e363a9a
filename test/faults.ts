/**
 * Puts faults in front of a calendar's D1 writer and queue publisher (see test/worker.ts).
 * Not a test file (vitest only picks up *.test.ts).
 */
import { runInDurableObject } from "cloudflare:test";
import type { ServiceCalendar as ProductionCalendar } from "../src/calendar/service-calendar";
import type { CalendarFaults, ServiceCalendar } from "./worker";

/** Sets (or, with `undefined` values, clears) faults on the live calendar behind `stub`. */
export async function injectFaults(stub: DurableObjectStub<ProductionCalendar>, faults: CalendarFaults) {
  await runInDurableObject(stub, (instance: ProductionCalendar) => {
    Object.assign((instance as ServiceCalendar).faults, faults);
  });
}
