/**
 * Booking limits and fair assignment, as services and providers carry them (docs/api-behaviour.md,
 * "Booking limits and assignment"): how many bookings a day or an ISO week may hold, how many
 * upcoming bookings one customer may have, and who an unnamed booking goes to.
 */
import { z } from "../lib/zod";

/** The bounds of each limit (integers; anything else is a 422 naming the field). */
export const LIMIT_BOUNDS = { perDay: 1_000, perWeek: 10_000, maxActivePerCustomer: 100 } as const;

const bounded = (max: number) => z.number().int().min(1).max(max).nullable().optional();

const countedRule =
  "Bookings count from the moment they hold a seat: CONFIRMED and PENDING bookings, live holds and bookings being made; cancelled, completed and no-show bookings and ended holds do not. A booking over a limit is 409 `slot_unavailable` with `reason` `limit_reached`, and the slot calendar shows such slots as not bookable. Lowering a limit below what is booked leaves existing bookings as they are: only new ones are refused.";

/** A service's limits: bookings of it per local day and per ISO week (Monday first) in its zone. */
export const ServiceLimitsSchema = z
  .strictObject({
    perDay: bounded(LIMIT_BOUNDS.perDay).openapi({
      description: `At most this many bookings of the service start on one calendar day in its \`timezone\` (1–${LIMIT_BOUNDS.perDay.toLocaleString("en-US")}; null or absent: no limit).`,
      example: 8,
    }),
    perWeek: bounded(LIMIT_BOUNDS.perWeek).openapi({
      description: `At most this many bookings of the service start in one ISO week (Monday 00:00 to Monday 00:00) in its \`timezone\` (1–${LIMIT_BOUNDS.perWeek.toLocaleString("en-US")}; null or absent: no limit).`,
      example: 30,
    }),
  })
  .openapi({
    description: `How many bookings of the service a day and a week may hold, by each booking's start. ${countedRule} A PATCH replaces the whole object (\`{}\` removes both).`,
  });

/** A provider's limit: their bookings of every service per local day in their zone. */
export const ProviderLimitsSchema = z
  .strictObject({
    perDay: bounded(LIMIT_BOUNDS.perDay).openapi({
      description: `At most this many of the provider's bookings, of all their services together, start on one calendar day in the provider's \`timezone\` (1–${LIMIT_BOUNDS.perDay.toLocaleString("en-US")}; null or absent: no limit). A booking that names nobody skips a provider at their limit; one that names them is refused.`,
      example: 6,
    }),
  })
  .openapi({
    description: `How many bookings the provider may take a day. ${countedRule} A team's booking counts for each of its providers. A PATCH replaces the whole object.`,
  });

/** Upcoming bookings one customer e-mail may hold of a service. */
export const MaxActivePerCustomerSchema = z
  .number()
  .int()
  .min(1)
  .max(LIMIT_BOUNDS.maxActivePerCustomer)
  .nullable()
  .openapi({
    description: `At most this many upcoming bookings (CONFIRMED or PENDING, starting later than now) of the service per customer e-mail, compared case-insensitively (1–${LIMIT_BOUNDS.maxActivePerCustomer}; null: no limit). One more is 409 \`slot_unavailable\` with \`reason\` \`limit_reached\`; a hold counts once it becomes a booking. A booking that has started no longer counts.`,
    example: 2,
  });

/** Who an unnamed booking of a service with providers goes to. */
export const AssignmentSchema = z.enum(["first", "balanced"]).openapi({
  description:
    "Who a booking that names no provider goes to. `first` (default): the free provider with the fewest bookings that local day, ties by id. `balanced`: the free provider with the fewest bookings of this service in the booking's ISO week (in the service's zone; live holds and bookings being made count), ties to the one whose last booking of it was made longest ago (never booked first) — concurrent bookings spread too. A visit's segments and a series' occurrences are each assigned by the rule of their service.",
  example: "first",
});

/** The limits as a service or provider shows them: every key, null when unset. */
export const shownLimits = <K extends string>(keys: readonly K[], limits: Partial<Record<K, number | null>>) =>
  Object.fromEntries(keys.map((k) => [k, limits[k] ?? null])) as Record<K, number | null>;
