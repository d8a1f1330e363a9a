/**
 * Puts faults in front of a calendar's D1 writer and queue publisher (see test/worker.ts).
 * Not a test file (vitest only picks up *.test.ts).
 */
import { runInDurableObject } from "cloudflare:test";
import type { ServiceCalendar as ProductionCalendar } from "../src/calendar/service/service-calendar";
import type { CalendarFaults, ServiceCalendar } from "./worker";

/** Sets (or, with `undefined` values, clears) faults on the live calendar behind `stub`. */
export async function injectFaults(stub: DurableObjectStub<ProductionCalendar>, faults: CalendarFaults) {
  await runInDurableObject(stub, (instance: ProductionCalendar) => {
    Object.assign((instance as ServiceCalendar).faults, faults);
  });
}

/**
 * Resets the calendar the moment a change is committed but not yet written to D1 (its outbox
 * holds a row while the call awaits D1): the call in flight fails as after a real reset.
 */
export async function resetOnceOutboxHolds(stub: DurableObjectStub<ProductionCalendar>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    const aborted = await runInDurableObject(stub, (_instance: ProductionCalendar, state) => {
      const pending = state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM outbox").one().n;
      if (pending === 0) return false;
      state.abort("reset by a test");
      return true;
    }).catch(() => true);
    if (aborted) return;
  }
}
