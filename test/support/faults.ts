/**
 * Puts faults in front of a calendar's D1 writer and queue publisher, and reads the calls the
 * calendars answered (see test/support/worker.ts). Not a test file (vitest only picks up *.test.ts).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ServiceCalendar as ProductionCalendar } from "../../src/calendar/service/object/service-calendar";
import { claimedCalendarOf, serviceCalendarOf } from "../../src/calendar/stubs";
import type { CalendarFaults, Calls, ServiceCalendar } from "./worker";

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

/** A calendar a booking may call: a service's, a person's or a resource's. */
export type CalendarRef = { calendar: "service" | "provider" | "resource"; id: string };

/**
 * The calls each calendar answered for other objects since the last `takeCalls` (test/support/worker.ts
 * counts them, by method), and counts cleared: keyed by `calendar:id`.
 */
export async function takeCalls(businessId: string, calendars: CalendarRef[]): Promise<Record<string, Calls>> {
  const taken = await Promise.all(
    calendars.map(({ calendar, id }) => {
      const stub =
        calendar === "service"
          ? serviceCalendarOf(env, businessId, id)
          : claimedCalendarOf(env, businessId, { calendar, id });
      return runInDurableObject(stub as DurableObjectStub, (instance) => {
        const { calls } = instance as unknown as { calls: Calls };
        const copy = { ...calls };
        for (const method of Object.keys(calls)) delete calls[method];
        return copy;
      });
    }),
  );
  return Object.fromEntries(calendars.map(({ calendar, id }, i) => [`${calendar}:${id}`, taken[i] as Calls]));
}
