/**
 * The first-run checklist an owner of a new business sees above the day: a service offered
 * online, hours to book in, the booking page on with an address — each a link to the setup page
 * that does it, ticked when done — ending at the live booking page. A business that has taken a
 * booking is past its first run: it never sees the list again, whatever its settings.
 */
import type { DeskContext } from "../frame/desk";
import { firstRunWordsOf } from "./first-run-words";

/** Where a new business stands: its three steps, the service to edit for its hours, its page's slug. */
export type FirstRun = {
  service: boolean;
  hours: boolean;
  page: boolean;
  /** An active service offered online, whose page has its hours; null before there is one. */
  serviceId: string | null;
  slug: string | null;
};

type Row = { slug: string | null; page_on: number; service_id: string | null; has_hours: number };

/** Whether a stored `weekly_schedule` (JSON) of the row `alias` has any interval on any day. */
const hasHours = (alias: string) =>
  `EXISTS (SELECT 1 FROM json_each(${alias}.weekly_schedule) AS d WHERE json_array_length(d.value) > 0)`;

/*
 * One statement. Hours are a service's own: its times are laid out on them (a person's hours
 * only narrow them), so a page whose services have none has nothing to book. A business with any
 * booking gives no row, so for an established business the read is one indexed look-up
 * (bookings by business) and none of the catalog is scanned.
 */
const READ = `SELECT b.slug AS slug,
  COALESCE(json_extract(b.booking_page, '$.enabled'), 0) AS page_on,
  (SELECT s.id FROM services AS s WHERE s.business_id = b.id AND s.active = 1 AND s.bookable_online = 1
    ORDER BY s.created_at, s.id LIMIT 1) AS service_id,
  EXISTS (SELECT 1 FROM services AS s WHERE s.business_id = b.id AND s.active = 1 AND s.bookable_online = 1
    AND ${hasHours("s")}) AS has_hours
FROM businesses AS b
WHERE b.id = ? AND NOT EXISTS (SELECT 1 FROM bookings AS k WHERE k.business_id = b.id)`;

/** Businesses this isolate has seen past their first run (at most this many; then it starts over). */
const MAX_PAST = 10_000;
const pastFirstRun = new Set<string>();

/**
 * The checklist's state for the signed-in member: undefined unless they are an owner of a
 * business that has not yet taken a booking (front desk and staff never see it).
 */
export async function firstRunOf(c: DeskContext): Promise<FirstRun | undefined> {
  const { businessId, member } = c.var.caller;
  if (member?.role !== "owner" || pastFirstRun.has(businessId)) return undefined;
  const row = await c.env.DB.prepare(READ).bind(businessId).first<Row>();
  if (!row) {
    // Bookings only accumulate: once past, a business stays past, and this isolate asks no more.
    if (pastFirstRun.size >= MAX_PAST) pastFirstRun.clear();
    pastFirstRun.add(businessId);
    return undefined;
  }
  return {
    service: row.service_id !== null,
    hours: row.has_hours === 1,
    page: row.page_on === 1 && row.slug !== null,
    serviceId: row.service_id,
    slug: row.slug,
  };
}

/** One step: ticked or not (in words too, for those who do not see the mark), a link to where it is done. */
function Step({ done, href, label, state }: { done: boolean; href: string; label: string; state: string }) {
  return (
    <li class={done ? "done" : undefined}>
      <span class="mark" aria-hidden="true">
        {done ? "✓" : "○"}
      </span>
      <a href={href}>{label}</a> <span class="state">({state})</span>
    </li>
  );
}

/** The checklist panel; with every step done, the link to the live booking page. */
export function FirstRunPanel({ c, run }: { c: DeskContext; run: FirstRun }) {
  const w = firstRunWordsOf(c.var.desk.locale);
  const state = (done: boolean) => (done ? w.done : w.todo);
  const service = run.serviceId ? `/office/setup/services/${run.serviceId}` : "/office/setup/services/new";
  const ready = run.service && run.hours && run.page;
  return (
    <section class="firstrun" aria-labelledby="firstrun">
      <h2 id="firstrun">{w.title}</h2>
      <p class="muted small">{w.intro}</p>
      <ol>
        <Step done={run.service} href={service} label={w.service} state={state(run.service)} />
        <Step done={run.hours} href={service} label={w.hours} state={state(run.hours)} />
        <Step done={run.page} href="/office/setup/business" label={w.page} state={state(run.page)} />
      </ol>
      {ready && (
        <p>
          {w.live} <a href={`/book/${run.slug}`}>/book/{run.slug}</a>
          <br />
          <span class="muted small">{w.liveNote}</span>
        </p>
      )}
    </section>
  );
}
