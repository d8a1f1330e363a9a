/** Working hours: weekly intervals and date overrides, local wall-clock time in the owner's time zone. */

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";
/** `HH:MM` to `HH:MM` (an end of `24:00` is the next midnight). */
export type TimeInterval = { start: string; end: string };
export type WeeklySchedule = Partial<Record<Weekday, TimeInterval[]>>;
/** A local date (`YYYY-MM-DD`) whose intervals replace its weekday's; `[]` closes the day. */
export type DateOverride = { date: string; intervals: TimeInterval[] };

/** Whose working hours these are: a service's, a person's or a room's, in its own time zone. */
export type WorkingHours = {
  timezone: string;
  weeklySchedule: WeeklySchedule;
  dateOverrides?: readonly DateOverride[];
};
