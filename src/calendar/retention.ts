/**
 * What a calendar keeps: every booking that can still overlap a new one, and every row some
 * pending work refers to. A booking that ended more than two days ago can overlap nothing (no
 * booking starts in the past) and no live Idempotency-Key can name it (keys live 24 hours and
 * bookings are made before they end), so calendars drop it; D1 keeps it for good.
 */
export const CALENDAR_KEEPS_PAST_MS = 2 * 86_400_000;

/**
 * A waitlist entry is history once its slot has begun (no offer is made for it); a calendar
 * keeps it readable this long after its slot ended, then the nightly prune drops it.
 */
export const WAITLIST_KEEPS_PAST_MS = 30 * 86_400_000;
