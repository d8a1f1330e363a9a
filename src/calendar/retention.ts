/**
 * What a calendar keeps: every booking that can still overlap a new one or count against a
 * limit, and every row some pending work refers to. A booking that ended more than eight days
 * ago can overlap nothing (no booking starts in the past), no live Idempotency-Key can name it
 * (keys live 24 hours and bookings are made before they end), and it began before the current
 * ISO week in any zone (a local week is at most 7 days and an hour long), so no day's or week's
 * limit, nor balanced assignment's count, needs it: calendars drop it; D1 keeps it for good.
 */
export const CALENDAR_KEEPS_PAST_MS = 8 * 86_400_000;

/**
 * A waitlist entry is history once its slot has begun (no offer is made for it); a calendar
 * keeps it readable this long after its slot ended, then the nightly prune drops it.
 */
export const WAITLIST_KEEPS_PAST_MS = 30 * 86_400_000;
