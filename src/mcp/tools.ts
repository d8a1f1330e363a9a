/**
 * The tools: each mirrors one REST operation (named by its operationId), takes that operation's
 * fields as arguments and answers its JSON as `structuredContent`, with a short text for the
 * model. `find_availability` is the one that condenses: the next bookable slots, not the calendar.
 */
import type { z } from "../lib/zod";
import type { BookingSchema } from "../schemas/bookings";
import type { CustomerListSchema } from "../schemas/customers";
import type { HoldSchema } from "../schemas/holds";
import type { ServiceListSchema } from "../schemas/services";
import { type JsonSchema, type OpenApiDocument, outputSchemaOf } from "./schemas";

type Booking = z.infer<typeof BookingSchema>;
type Hold = z.infer<typeof HoldSchema>;
/** A list's envelope; `page` is null only on a page reached by a cursor, which the tools do not ask for. */
type Page<T> = { data: T[]; pagination: { page: number | null; total: number; totalPages: number; hasMore: boolean } };

/** A successful answer as the tool gives it. */
export type Presented = { structured: Record<string, unknown>; text: string };

export type Tool = {
  name: string;
  title: string;
  description: string;
  operationId: string;
  /** The argument that fills the operation's `{id}` path parameter. */
  idArgument?: { name: string; description: string };
  readOnly: boolean;
  /** Safe to repeat with the same arguments (reads; writes only with the same idempotencyKey). */
  idempotent: boolean;
  /** The tool's outputSchema when it is not the operation's own success answer. */
  outputSchema?: (doc: OpenApiDocument) => JsonSchema;
  present: (body: unknown, replayed: boolean) => Presented;
};

/** Most bookable slots `find_availability` lists. */
export const SLOTS_LISTED = 20;
/** How many free slots a refusal for a taken slot suggests. */
export const SLOTS_SUGGESTED = 5;

type Slot = { startTime: string; endTime: string; remaining: number; bookable: boolean; providers?: string[] };
type Availability = { serviceId: string; timezone: string; from: string; to: string; slots: Slot[] };

/** The summary of an availability answer: its first bookable slots, and where to go on from. */
export function bookableSlots(availability: Availability, limit: number) {
  const bookable = availability.slots.filter((slot) => slot.bookable);
  const slots = bookable.slice(0, limit).map(({ startTime, endTime, remaining, providers }) => ({
    startTime,
    endTime,
    remaining,
    ...(providers ? { providers } : {}),
  }));
  return {
    serviceId: availability.serviceId,
    timezone: availability.timezone,
    from: availability.from,
    to: availability.to,
    slots,
    bookableCount: bookable.length,
    nextFrom: bookable[limit]?.startTime ?? null,
  };
}

const slotText = (slot: { startTime: string; providers?: string[] }) =>
  slot.providers?.length ? `${slot.startTime} (${slot.providers.join(", ")})` : slot.startTime;

/** The summary's schema: the document's Availability, its slots cut to the fields listed. */
function availabilitySummarySchema(doc: OpenApiDocument): JsonSchema {
  const full = outputSchemaOf(doc, "getServiceAvailability");
  const properties = full.properties as Record<string, JsonSchema>;
  const slot = (properties.slots as JsonSchema).items as JsonSchema;
  const slotProperties = slot.properties as Record<string, JsonSchema>;
  const listed = ["startTime", "endTime", "remaining", "providers"] as const;
  return {
    type: "object",
    properties: {
      serviceId: properties.serviceId,
      timezone: properties.timezone,
      from: properties.from,
      to: properties.to,
      slots: {
        type: "array",
        maxItems: SLOTS_LISTED,
        description: `The first ${SLOTS_LISTED} bookable slots of the range at most, earliest first.`,
        items: {
          type: "object",
          properties: Object.fromEntries(listed.map((name) => [name, slotProperties[name]])),
          required: ["startTime", "endTime", "remaining"],
          additionalProperties: false,
        },
      },
      bookableCount: { type: "integer", minimum: 0, description: "Bookable slots in the whole range." },
      nextFrom: {
        type: ["string", "null"],
        description: "Start of the first bookable slot not listed: pass it as `from` for the next ones; null if none.",
      },
    },
    required: ["serviceId", "timezone", "from", "to", "slots", "bookableCount", "nextFrom"],
    additionalProperties: false,
  };
}

const bookingLine = (b: Booking) =>
  `${b.id} ${b.status} ${b.startTime}–${b.endTime}${b.providerId ? ` with ${b.providerId}` : ""}, ${b.customerName} <${b.customerEmail}>, service ${b.serviceId}`;

const replayNote = (replayed: boolean) =>
  replayed ? " (replayed: this idempotencyKey already did it; nothing new happened)" : "";

function pageText<T>(page: Page<T>, noun: string, line: (item: T) => string): string {
  const { total, totalPages, hasMore } = page.pagination;
  const number = page.pagination.page ?? 1;
  const head = `${total} ${noun}${total === 1 ? "" : "s"}; page ${number} of ${Math.max(totalPages, 1)} lists ${page.data.length}${hasMore ? ` (ask for page ${number + 1} for more)` : ""}.`;
  return [head, ...page.data.map((item) => `- ${line(item)}`)].join("\n");
}

/** A read-only tool that answers one page of a list, a line per item. */
function listTool<T>(
  tool: Pick<Tool, "name" | "title" | "operationId" | "description">,
  noun: string,
  line: (item: T) => string,
): Tool {
  return {
    ...tool,
    readOnly: true,
    idempotent: true,
    present: (body) => {
      const page = body as Page<T>;
      return { structured: page, text: pageText(page, noun, line) };
    },
  };
}

const bookingResult = (verb: string) => (body: unknown, replayed: boolean) => {
  const booking = body as Booking;
  return { structured: booking, text: `${verb} ${bookingLine(booking)}.${replayNote(replayed)}` };
};

const bookingId = {
  name: "bookingId",
  description: "The booking's id (`bkg_…`), as returned by book_appointment or list_bookings.",
};

export const tools: Tool[] = [
  listTool<z.infer<typeof ServiceListSchema>["data"][number]>(
    {
      name: "list_services",
      title: "List services",
      operationId: "listServices",
      description:
        "Lists the business's bookable services (active ones unless active is \"false\"), newest first, with each service's id, duration, seats per slot, time zone, weekly hours and providers. Start here to find the serviceId that find_availability, hold_slot and book_appointment need.",
    },
    "service",
    (s) =>
      `${s.id} "${s.name}": ${s.durationMinutes} min, ${s.capacity} seat(s) per slot, ${s.timezone}${s.providerIds.length ? `, providers ${s.providerIds.join(", ")}` : ""}${s.active ? "" : " (inactive)"}`,
  ),
  {
    name: "find_availability",
    title: "Find free slots",
    operationId: "getServiceAvailability",
    idArgument: { name: "serviceId", description: "The service's id (`svc_…`), from list_services." },
    description: `Finds the next free slots of a service: the first ${SLOTS_LISTED} bookable slots starting in [from, to) (from defaults to now, to to from + 7 days; at most 31 days), each with its start and end (UTC), seats left and, on a service with providers, who is free then. bookableCount says how many bookable slots the range has in all; nextFrom, when set, is the from to ask with for the ones after. Use it before hold_slot or book_appointment, and pass a slot's startTime and endTime unchanged. providerId limits it to one person's seats.`,
    readOnly: true,
    idempotent: true,
    outputSchema: availabilitySummarySchema,
    present: (body) => {
      const summary = bookableSlots(body as Availability, SLOTS_LISTED);
      const listed = summary.slots.map(slotText).join(", ");
      const text =
        summary.bookableCount === 0
          ? `No bookable slot of ${summary.serviceId} between ${summary.from} and ${summary.to}. Try a later range.`
          : `${summary.bookableCount} bookable slot(s) of ${summary.serviceId} between ${summary.from} and ${summary.to} (service time zone ${summary.timezone}). ${summary.nextFrom ? `The first ${summary.slots.length}` : "All"}: ${listed}.${summary.nextFrom ? ` For more, call again with from=${summary.nextFrom}.` : ""}`;
      return { structured: summary, text };
    },
  },
  {
    name: "hold_slot",
    title: "Hold a slot",
    operationId: "createHold",
    description:
      "Keeps one seat of a slot for a few minutes (ttlSeconds, default 600) while the customer's details are gathered, so nobody else can take it. The same rules as a booking apply, so a refusal here means booking would be refused too. Then call book_appointment with the returned hold id as holdId (service, times and provider come from the hold). An unused hold frees itself when it expires.",
    readOnly: false,
    idempotent: false,
    present: (body) => {
      const hold = body as Hold;
      return {
        structured: hold,
        text: `Held ${hold.startTime}–${hold.endTime} of ${hold.serviceId}${hold.providerId ? ` with ${hold.providerId}` : ""} until ${hold.expiresAt} as ${hold.id}. Book it with book_appointment and holdId "${hold.id}".`,
      };
    },
  },
  {
    name: "book_appointment",
    title: "Book an appointment",
    operationId: "createBooking",
    description:
      "Books an appointment for a customer (found or created by customerEmail). Either pass holdId from hold_slot, or serviceId, startTime and endTime of a free slot from find_availability. The answer is the booking: CONFIRMED, or PENDING when the service needs confirmation. Always send an idempotencyKey (any unique string, e.g. a UUID) and reuse it if you retry the same booking after an error or timeout: a repeat answers the first booking instead of booking twice. A refusal (isError) says why in its problem code, e.g. slot_unavailable with the next free slots, or hold_expired.",
    readOnly: false,
    idempotent: true,
    present: bookingResult("Booked"),
  },
  {
    name: "reschedule_booking",
    title: "Reschedule a booking",
    operationId: "rescheduleBooking",
    idArgument: bookingId,
    description:
      "Moves a PENDING or CONFIRMED booking to another time (startTime and endTime of a free slot; endTime is startTime plus the service's duration) and optionally another provider. The booking keeps its id and status; the old time is freed in the same step that takes the new one. Send an idempotencyKey and reuse it when retrying. If the new time is not free, the booking is unchanged and the refusal lists the next free slots.",
    readOnly: false,
    idempotent: true,
    present: bookingResult("Rescheduled"),
  },
  {
    name: "cancel_booking",
    title: "Cancel a booking",
    operationId: "cancelBooking",
    idArgument: bookingId,
    description:
      "Cancels a PENDING or CONFIRMED booking and frees its slot at once; reason is optional and kept on the booking. Cancelling an already cancelled or finished booking is refused (invalid_transition). Send an idempotencyKey and reuse it when retrying.",
    readOnly: false,
    idempotent: true,
    present: bookingResult("Cancelled"),
  },
  listTool<Booking>(
    {
      name: "list_bookings",
      title: "List bookings",
      operationId: "listBookings",
      description:
        "Lists the business's bookings, latest appointment first, filtered by status, serviceId, customerId and an appointment start range [from, to). Use it to find a booking's id before reschedule_booking or cancel_booking, or to check what is booked.",
    },
    "booking",
    bookingLine,
  ),
  listTool<z.infer<typeof CustomerListSchema>["data"][number]>(
    {
      name: "find_customers",
      title: "Find customers",
      operationId: "listCustomers",
      description:
        "Finds customers of the business whose name or e-mail contains search (case-insensitive), newest first; without search it lists all. Use it to find a customer's id (customerId for list_bookings) or to check the e-mail to book with.",
    },
    "customer",
    (c) => `${c.id} ${c.name} <${c.email}>${c.phone ? `, ${c.phone}` : ""}`,
  ),
];
