const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** The earliest example instant is at least this far ahead of the time the document is built. */
const LEAD = 2 * DAY;

const utcInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * Keeps the document's example instants in the future. The schemas write them as fixed dates;
 * a request with a start in the past is a 422, so a fixed date would turn the document's own
 * examples into errors as time passes. They all move forward by the same whole number of weeks
 * (keeping weekday, time of day and the distances between them, so `from` stays before `to`
 * and a booking keeps its duration) until the earliest is at least two days ahead of `now`.
 */
export function examplesAhead<T>(document: T, now: number): T {
  const instants: number[] = [];
  JSON.stringify(document, (key, value) => {
    if (key === "example" && typeof value === "string" && utcInstant.test(value)) instants.push(Date.parse(value));
    return value;
  });
  if (instants.length === 0) return document;
  const weeks = Math.max(0, Math.ceil((now + LEAD - Math.min(...instants)) / WEEK));
  if (weeks === 0) return document;
  const shift = (value: string) => {
    const moved = new Date(Date.parse(value) + weeks * WEEK).toISOString();
    // Keep the example's own precision: `10:00:00Z` stays without milliseconds.
    return value.includes(".") ? moved : moved.replace(/\.\d+Z$/, "Z");
  };
  return JSON.parse(JSON.stringify(document), (key, value) =>
    key === "example" && typeof value === "string" && utcInstant.test(value) ? shift(value) : value,
  ) as T;
}
