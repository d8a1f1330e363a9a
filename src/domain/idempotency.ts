/**
 * How long an `Idempotency-Key` is kept: 24 hours, in D1 (which coordinates keys across a
 * business's services) and in each calendar's own record of the keys it served alike, so a key
 * reused after this is a new request in both places.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
