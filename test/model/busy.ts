/**
 * Connected calendars in the model-based test: an event appears in or disappears from a person's own
 * calendar, then a read stores it — driven through a test-only path straight into the person's
 * calendar object (test/support/worker.ts `setBusy`), not through a CalDAV server: a server per sequence
 * would be too slow, and the CalDAV path itself is tested against Xandikos in test/connected-calendars.
 * The model refuses the person's time over a busy span (person-rules, after their claims), and
 * the invariant: nothing is booked over a busy span known before the booking (or the hold it came
 * from, which keeps its time) took its time.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type fc from "fast-check";
import type { ProviderCalendar } from "../../src/calendar/provider/provider-calendar";
import { providerCalendarOf } from "../../src/calendar/stubs";
import type { ProviderCalendar as TestProviderCalendar } from "../support/worker";
import { DAY, MINUTE, type Model, type ProviderKey, T0 } from "./model";
import { checkInvariants, type System } from "./system";

type Cmd = fc.AsyncCommand<Model, System>;

/** Puts (or, with null, takes out) one member's busy spans in the person's calendar object. */
async function store(sys: System, person: ProviderKey, id: string, span: { start: number; end: number } | null) {
  await runInDurableObject(providerCalendarOf(env, sys.businessId, sys.ids[person]), (instance: ProviderCalendar) => {
    (instance as TestProviderCalendar).setBusy(id, span ? [span] : null);
  });
}

/** An event appears in the person's calendar (`minutes` long from `start`), then a read. */
export class BusyAppears implements Cmd {
  constructor(
    readonly person: ProviderKey,
    readonly start: number,
    readonly minutes: number,
  ) {}
  check = () => true;
  async run(m: Model, sys: System) {
    const span = { start: this.start, end: this.start + this.minutes * MINUTE };
    const id = `busy-${crypto.randomUUID()}`;
    await store(sys, this.person, id, span);
    m.busy = [...(m.busy ?? []), { id, person: this.person, ...span, seq: m.seq ?? 0 }];
    await checkInvariants(m, sys);
  }
  toString = () =>
    `busy(${this.person}, d${Math.floor((this.start - T0) / DAY)} ${new Date(this.start).toISOString().slice(11, 16)}, ${this.minutes} min)`;
}

/** An event disappears from the person's calendar, then a read. */
export class BusyGone implements Cmd {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => (m.busy ?? []).length > 0;
  async run(m: Model, sys: System) {
    const busy = m.busy ?? [];
    const gone = busy[this.index % busy.length] as NonNullable<Model["busy"]>[number];
    await store(sys, gone.person, gone.id, null);
    m.busy = busy.filter((b) => b !== gone);
    await checkInvariants(m, sys);
  }
  toString = () => `busy-gone(#${this.index})`;
}
