/**
 * The calendar objects of a moving business: one per service, person and room, found by the rows
 * of its old shard, a page at a time. The relocation calls them directly (not through a business env's
 * `onShard`): holding and releasing are the relocation's own calls, whatever shard the object knows.
 */
import { providerCalendarOf, resourceCalendarOf, serviceCalendarOf } from "../calendar";

/** The kinds of calendar object a business has, in the order a relocation visits them. */
export const CALENDAR_KINDS = ["services", "providers", "resources"] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];

/** What a relocation asks of every calendar object. */
type HeldCalendar = { holdForRelocation(): Promise<void>; resumeOn(shard: number, from: number): Promise<void> };

const PAGE = 50;

const stubOf: Record<CalendarKind, (env: Env, businessId: string, id: string) => HeldCalendar> = {
  services: serviceCalendarOf,
  providers: providerCalendarOf,
  resources: resourceCalendarOf,
};

/** The objects of the business's `kind` whose ids come after `after`, and the last id (null: none follow). */
export async function calendarsPage(
  env: Env,
  db: D1Database,
  kind: CalendarKind,
  businessId: string,
  after: string,
): Promise<{ stubs: HeldCalendar[]; last: string | null }> {
  const { results } = await db
    .prepare(`SELECT id FROM ${kind} WHERE business_id = ? AND id > ? ORDER BY id LIMIT ${PAGE}`)
    .bind(businessId, after)
    .all<{ id: string }>();
  return {
    stubs: results.map((row) => stubOf[kind](env, businessId, row.id)),
    last: results.length < PAGE ? null : (results[results.length - 1]?.id ?? null),
  };
}
