/**
 * The phone-in's last step as the API's request: a booking's (`POST /bookings`: the same body
 * schema and `createBooking`) or a visit's (`POST /appointments`: `CreateVisitSchema` and
 * `createVisit`), each run with the member as the actor the audit records. Either is a request
 * to book under the form's attempt id, or the problems of the fields the step asked.
 */

import { authorOf } from "../../access/actor";
import { createBooking } from "../../bookings/create";
import type { IdempotencyLock, Outcome } from "../../lib/idempotency";
import { CreateBookingSchema } from "../../schemas/bookings";
import { CreateVisitSchema } from "../../schemas/visits";
import { createVisit } from "../../visits/create";
import { authorise } from "../frame/authorise";
import type { DeskContext } from "../frame/desk";
import { problemsIn } from "../frame/problems";
import type { PhoneIn } from "./load";
import { answersOf, visitAnswersOf } from "./questions";

/** A phone-in at its last step, with what it books. */
type Ready = PhoneIn & {
  service: NonNullable<PhoneIn["service"]>;
  customer: NonNullable<PhoneIn["customer"]>;
  time: { startTime: string; endTime: string };
};

/** What the post books: the request, the run under its idempotency lock (answering the first booking's id), and the flash. */
export type Order =
  | {
      request: unknown;
      book: (lock: IdempotencyLock | undefined) => Promise<Outcome<{ id: string }>>;
      done: "created" | "visit";
    }
  | { problems: Record<string, string>; refused?: string };

/** The customer's fields of a request. */
const customerFields = ({ customer }: Ready) => ({
  customerName: customer.name,
  customerEmail: customer.email,
  ...(customer.phone ? { customerPhone: customer.phone } : {}),
});

/** A person chosen by name (neither `any` nor none to choose) as the request's `providerId`. */
const personOf = (person: string | undefined) => (person && person !== "any" ? { providerId: person } : {});

/** One service booked as `POST /bookings` books it. */
export function bookingOrder(c: DeskContext, flow: Ready, fields: Record<string, string>): Order {
  // The service's questions and the notes, read as the booking page reads them.
  const { details, problems } = answersOf(fields, flow.customer, flow.service.questions ?? [], c.var.desk.locale);
  if (!details) return { problems };
  const parsed = CreateBookingSchema.safeParse({
    serviceId: flow.service.id,
    ...flow.time,
    ...customerFields(flow),
    ...(details.notes ? { notes: details.notes } : {}),
    ...(Object.keys(details.answers).length > 0 ? { answers: details.answers } : {}),
    // The person as the flow kept it: none for a service without people to choose.
    ...personOf(flow.choice.person),
  });
  // Every field was checked above by the same rules; what is left is the request's own shape.
  if (!parsed.success) return { problems: {}, refused: problemsIn(c.var.desk.locale, parsed.error)[0]?.message ?? "" };
  const request = parsed.data;
  return {
    request,
    done: "created",
    book: async (lock) => {
      const { booking, replayed } = await createBooking(c.env, c.var.db, authorOf(c.var.caller), request, lock);
      return { body: { id: booking.id }, replayed };
    },
  };
}

/** Several services back to back booked as `POST /appointments` books them: all or none. */
export async function visitOrder(c: DeskContext, flow: Ready, fields: Record<string, string>): Promise<Order> {
  await authorise(c, "bookings:write", "POST /appointments");
  const later = flow.later ?? [];
  const questions = [flow.service.questions ?? [], ...later.map((l) => l.service.questions ?? [])];
  const { details, answers, problems } = visitAnswersOf(fields, flow.customer, questions, c.var.desk.locale);
  if (!details) return { problems };
  const segments = [
    { serviceId: flow.service.id, ...personOf(flow.choice.person) },
    ...later.map((l) => ({ serviceId: l.service.id, ...personOf(l.choice.person) })),
  ].map((segment, i) => {
    const given = answers[i] ?? {};
    return Object.keys(given).length > 0 ? { ...segment, answers: given } : segment;
  });
  const parsed = CreateVisitSchema.safeParse({
    ...customerFields(flow),
    ...(details.notes ? { notes: details.notes } : {}),
    startTime: flow.time.startTime,
    segments,
  });
  if (!parsed.success) return { problems: {}, refused: problemsIn(c.var.desk.locale, parsed.error)[0]?.message ?? "" };
  const request = parsed.data;
  return {
    request,
    done: "visit",
    book: async (lock) => {
      const { visit, replayed } = await createVisit(c.env, c.var.db, authorOf(c.var.caller), request, lock);
      return { body: { id: visit.bookings[0]?.id ?? "" }, replayed };
    },
  };
}
