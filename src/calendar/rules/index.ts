/**
 * The calendar's pure rules as the rest of the Worker uses them (schemas, domain modules): what a
 * service's timing allows, working hours and time zones, recurrence. No object is asked here;
 * what asks the calendar objects is src/calendar (index.ts).
 */
export { MAX_OCCURRENCES, MAX_SERIES_DAYS, occurrenceStarts, parseRecurrence } from "./recurrence";
export { findOverlap, isValidTimeZone, minutesOfDay, timeOfDayPattern } from "./schedule";
export { checkTiming, type Span, segmentTimes, slotBeyond, workingSpans } from "./service-rules";
export { localDateOf } from "./zoned";
