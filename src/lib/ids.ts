import { monotonicFactory } from "ulid";

/** Monotonic: ids made in the same millisecond still sort in creation order. */
const ulid = monotonicFactory();

/** Prefixes of the public identifiers; the rest is a lower-case ULID (time-sortable). */
export const idPrefixes = {
  business: "biz",
  apiKey: "key",
  service: "svc",
  customer: "cus",
  booking: "bkg",
  event: "evt",
  webhook: "whk",
  provider: "prv",
  hold: "hld",
  resource: "res",
  visit: "apt",
  series: "ser",
  waitlist: "wtl",
  calendar: "cal",
  audit: "aud",
  member: "mbr",
  passkey: "psk",
} as const;

export type IdKind = keyof typeof idPrefixes;

/** A new opaque, prefixed, time-sortable id such as `bkg_01jd3k…`. */
export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${idPrefixes[kind]}_${ulid(now).toLowerCase()}`;
}
