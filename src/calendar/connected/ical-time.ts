/**
 * ical.js times as instants. A time with a zone that its calendar defines (a VTIMEZONE) or UTC
 * is ical.js's to convert; a floating time — no zone, or a TZID without a VTIMEZONE — is a wall
 * time: in the IANA zone its TZID names when that is one, else in the person's own zone. A date
 * (an all-day event) begins at local midnight in the person's zone.
 */
import type ICAL from "ical.js";
import { isValidTimeZone } from "../rules/schedule";
import { instantOf } from "../rules/zoned";

/** Remembers which TZIDs are IANA zones (checking one builds an `Intl.DateTimeFormat`). */
export class ZoneNames {
  private readonly known = new Map<string, boolean>();

  constructor(readonly personal: string) {}

  /** The IANA zone a floating time with this TZID (or none) is read in. */
  zoneFor(tzid: string | null | undefined): string {
    if (!tzid) return this.personal;
    let valid = this.known.get(tzid);
    if (valid === undefined) {
      valid = isValidTimeZone(tzid);
      this.known.set(tzid, valid);
    }
    return valid ? tzid : this.personal;
  }
}

/** Whether ical.js can place this time on the time line itself (UTC, or a zone the data defines). */
const hasOwnZone = (time: ICAL.Time) => {
  const tzid = time.zone?.tzid;
  return tzid !== undefined && tzid !== "floating";
};

/**
 * The instant of an ical.js time in epoch milliseconds. `tzid`: the TZID parameter its property
 * carried (ical.js keeps it only when the calendar defines the zone).
 */
export function instantMs(time: ICAL.Time, tzid: string | null | undefined, zones: ZoneNames): number {
  if (time.isDate) return instantOf(time, 0, zones.personal);
  if (hasOwnZone(time)) return time.toUnixTime() * 1000;
  // ical.js keeps an undefined zone's name as `timezone` (not in its types).
  const zone = zones.zoneFor(tzid ?? (time as ICAL.Time & { timezone?: string }).timezone);
  return instantOf(time, time.hour * 60 + time.minute, zone) + time.second * 1000;
}
