/**
 * Conflicts in the model-based test: after each command, the bookings D1 marks as conflicted
 * are exactly those still to end whose constraints no longer hold — for each active person of a
 * CONFIRMED booking, their hours and day off no longer covering its time (`outside_hours`, or
 * `time_off` when only the day off does not) and a busy span of their own calendar over it
 * (`calendar_busy`); for its room, the room's hours no longer covering it (`resource_closed`). The
 * people's and the room's alarms run first: they carry the marks to D1.
 */
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { providerCalendarOf, resourceCalendarOf } from "../../src/calendar/stubs";
import { type BookingModel, type Model, type ProviderKey, within, workingBlocks } from "./model";
import type { System } from "./system";

/** The kinds of conflict the model expects of one booking, sorted. */
function expectedKinds(m: Readonly<Model>, b: BookingModel): string[] {
  const kinds = new Set<string>();
  for (const key of b.provider ? [b.provider] : b.team) {
    const person = m.providers[key];
    if (person.active && !within(workingBlocks(person.hours, person.zone, person.dayOff), b.start, b.end)) {
      kinds.add(within(workingBlocks(person.hours, person.zone), b.start, b.end) ? "time_off" : "outside_hours");
    }
    if ((m.busy ?? []).some((s) => s.person === key && s.start < b.end && b.start < s.end)) kinds.add("calendar_busy");
  }
  for (const key of b.resources) {
    const room = m.resources[key];
    if (room.active && room.hours !== null && !within(workingBlocks(room.hours, "UTC"), b.start, b.end)) {
      kinds.add("resource_closed");
    }
  }
  return [...kinds].sort();
}

/** Checks the conflicted bookings D1 lists against the model's. */
export async function checkConflicts(
  m: Readonly<Model>,
  sys: System,
  listConflicted: () => Promise<Response>,
): Promise<void> {
  for (const key of ["P0", "P1"] as ProviderKey[]) {
    await runDurableObjectAlarm(providerCalendarOf(env, sys.businessId, sys.ids[key]));
  }
  await runDurableObjectAlarm(resourceCalendarOf(env, sys.businessId, sys.ids.R0));
  const res = await listConflicted();
  const listed = ((await res.json()) as { data: { id: string; conflicts: { kind: string }[] }[] }).data;
  const upcoming = new Map(m.bookings.filter((b) => b.status === "CONFIRMED" && b.end > m.now).map((b) => [b.id, b]));
  const actual = Object.fromEntries(
    listed.filter((b) => upcoming.has(b.id)).map((b) => [b.id, [...new Set(b.conflicts.map((c) => c.kind))].sort()]),
  );
  const expected = Object.fromEntries(
    [...upcoming.values()].map((b) => [b.id, expectedKinds(m, b)] as const).filter(([, kinds]) => kinds.length > 0),
  );
  expect(actual, "conflicted bookings").toEqual(expected);
}
