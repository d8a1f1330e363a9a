/**
 * The demo account that `npm run dev` creates in LOCAL D1 only, and the sample data it seeds.
 *
 * DEMO_API_KEY is a fixed, publicly known TEST key so that a newcomer (and docs, curl examples,
 * the browser test) can call the local API without a setup step. It is written only to local
 * Miniflare state by scripts/dev/prepare.ts, only as its SHA-256 hash, and must never be inserted into
 * a remote database. Real keys come from `npm run business:create`.
 */
/** Same shape as WeeklySchedule in src/types/schedule.ts (kept local so scripts load no Worker code). */
type WeeklySchedule = Partial<
  Record<"mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun", { start: string; end: string }[]>
>;

/** Local-only demo key (bk_test_ + 26 base62 characters). Not a secret; never use it remotely. */
export const DEMO_API_KEY = "bk_test_demoDemoDemoDemoDemoDemo00";

export const DEMO_BUSINESS_NAME = "Demo Salon";

/** Fixed ids, valid as prefix + 26 lower-case Crockford base32 characters (a ULID at time 0). */
export const DEMO_BUSINESS_ID = "biz_00000000000000000000000001";
export const DEMO_API_KEY_ID = "key_00000000000000000000000001";

/** A fixed creation time, so the demo rows are identical every time they are (re)created. */
export const DEMO_CREATED_AT = "2026-01-01T00:00:00.000Z";

export const DEMO_TIMEZONE = "Europe/Berlin";

/** The demo's booking page, `/book/demo-salon` (PATCH /api/v1/business). */
export const demoBusinessSettings = {
  slug: "demo-salon",
  timezone: DEMO_TIMEZONE,
  contactEmail: "hello@demo-salon.example",
  bookingPage: { enabled: true, accentColor: "#0f766e" },
} as const;

const monToSat = (start: string, end: string): WeeklySchedule => {
  const day = [{ start, end }];
  return { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day };
};

/** Request bodies for POST /api/v1/services. */
export const demoServices = [
  {
    name: "Haircut",
    description: "Wash, cut and style.",
    durationMinutes: 30,
    capacity: 1,
    slotIntervalMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 10,
    minNoticeMinutes: 60,
    maxAdvanceDays: 90,
    timezone: DEMO_TIMEZONE,
    weeklySchedule: monToSat("09:00", "18:00"),
    bookableOnline: true,
  },
  {
    name: "Beard trim",
    description: "Trim, shape and hot towel.",
    durationMinutes: 15,
    capacity: 1,
    slotIntervalMinutes: 15,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 5,
    minNoticeMinutes: 60,
    maxAdvanceDays: 90,
    timezone: DEMO_TIMEZONE,
    weeklySchedule: monToSat("09:00", "18:00"),
    bookableOnline: true,
  },
  {
    name: "Group yoga class",
    description: "Hatha yoga for all levels; mats provided.",
    durationMinutes: 60,
    capacity: 8,
    slotIntervalMinutes: 60,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    minNoticeMinutes: 120,
    maxAdvanceDays: 60,
    // A class fills up: customers' own links may cancel or move a place until a day before.
    cancellationNoticeMinutes: 1440,
    rescheduleNoticeMinutes: 1440,
    bookableOnline: true,
    timezone: DEMO_TIMEZONE,
    weeklySchedule: {
      mon: [{ start: "18:00", end: "20:00" }],
      wed: [{ start: "18:00", end: "20:00" }],
      fri: [{ start: "18:00", end: "20:00" }],
      sat: [{ start: "10:00", end: "12:00" }],
    },
  },
] as const;

export type DemoServiceName = (typeof demoServices)[number]["name"];

/** Request bodies for POST /api/v1/providers: two stylists with their own hours. */
export const demoProviders = [
  { name: "Sam Rivera", email: "sam@example.com", timezone: DEMO_TIMEZONE, weeklySchedule: monToSat("09:00", "18:00") },
  {
    name: "Kim Lee",
    email: "kim@example.com",
    timezone: DEMO_TIMEZONE,
    weeklySchedule: monToSat("12:00", "18:00"),
    // A short day on New Year's Eve.
    dateOverrides: [{ date: "2026-12-31", intervals: [{ start: "12:00", end: "15:00" }] }],
  },
] as const;

/** The demo services both stylists perform: booking one books a person (or assigns one). */
export const demoServicesWithProviders: readonly DemoServiceName[] = ["Haircut", "Beard trim"];

/** Request body for POST /api/v1/resources: one room, open whenever a service using it is. */
export const demoRoom = { name: "Treatment room", quantity: 1, timezone: DEMO_TIMEZONE } as const;

/** The demo services that take the room: one of them at a time, whoever performs it. */
export const demoServicesWithRoom: readonly DemoServiceName[] = ["Haircut", "Beard trim"];

/** Request bodies for POST /api/v1/customers (example.com is reserved for examples). */
export const demoCustomers = [
  { name: "Ada Lovelace", email: "ada@example.com", phone: "+44 20 7946 0018" },
  { name: "Grace Hopper", email: "grace@example.com", phone: "+1 202 555 0143" },
  { name: "Alan Turing", email: "alan@example.com" },
] as const;

/**
 * Bookings to seed, by local date and wall-clock start in the service's time zone. `day` counts
 * demo days: 0 is the first date at least two days ahead that every service below works on
 * (Mon, Wed or Fri), 1 the next such date. Starts are aligned to each service's slot interval.
 */
export const demoBookings: ReadonlyArray<{
  service: DemoServiceName;
  customer: number;
  day: 0 | 1;
  start: string;
  notes?: string;
}> = [
  { service: "Haircut", customer: 0, day: 0, start: "10:00", notes: "First visit." },
  { service: "Haircut", customer: 1, day: 0, start: "14:30" },
  { service: "Beard trim", customer: 2, day: 0, start: "11:15" },
  { service: "Group yoga class", customer: 0, day: 0, start: "18:00" },
  { service: "Group yoga class", customer: 1, day: 0, start: "18:00", notes: "Bringing my own mat." },
  { service: "Haircut", customer: 2, day: 1, start: "09:00" },
];

/**
 * A visit to seed (POST /api/v1/appointments): a cut, then a beard trim straight after it, both by
 * the first stylist, on demo day 1 (as `demoBookings` counts days). The first segment starts on
 * the Haircut's 30-minute grid; the trim (11:30–11:45) lies inside both services' hours and
 * Sam's, and the room is free then (day 1's only other booking is Alan's 09:00 cut).
 */
export const demoVisit: {
  customer: number;
  provider: number;
  day: 0 | 1;
  start: string;
  segments: readonly DemoServiceName[];
} = { customer: 1, provider: 0, day: 1, start: "11:00", segments: ["Haircut", "Beard trim"] };

/**
 * A weekly series to seed (POST /api/v1/series): the group class at 18:00 every week for four
 * weeks from demo day 1 (a Mon, Wed or Fri, so every occurrence is a class day), for a customer
 * not in the class yet. Skipped occurrences (a full class) are reported, not fatal.
 */
export const demoSeries: {
  service: DemoServiceName;
  customer: number;
  day: 0 | 1;
  start: string;
  recurrence: string;
} = { service: "Group yoga class", customer: 2, day: 1, start: "18:00", recurrence: "FREQ=WEEKLY;COUNT=4" };

/** The demo's members, each signed in from the banner's link: an owner, and a staff member who is the first demo provider. */
export const demoMembers = [
  { email: "owner@example.com", name: "Olivia Owner", role: "owner" },
  { email: "sam@example.com", name: "Sam Rivera", role: "staff" },
] as const;
