/**
 * `/office/bookings/new`: the phone-in. Each step is a GET carrying the choices so far, except a
 * new customer's details, which are posted (kept out of addresses) and then travel in the notes
 * step's form; the last posts them with the notes, and the booking is made by the API's own create path
 * (`createBooking`, as `POST /bookings` runs it: the same body schema, the same calendar and
 * rules) after the same role check, with the member as the actor the audit records. Done, 303 to
 * the booking's page with a flash; a time taken meanwhile (or refused by any rule), the day's free
 * times again with the reason. Owner and front desk only: staff get the API's 403. The notes step's
 * form carries an attempt id, the post's Idempotency-Key: a double click books once.
 */
import { Hono } from "hono";
import { actorOf } from "../../access/actor";
import { createBooking } from "../../bookings/create";
import { ApiError } from "../../lib/api-error";
import { idempotentUnder } from "../../lib/idempotency";
import { readForm } from "../../pages/form";
import { CreateBookingSchema } from "../../schemas/bookings";
import { attemptKey, firstClick } from "../frame/attempt";
import { authorise } from "../frame/authorise";
import type { DeskContext, DeskEnv } from "../frame/desk";
import { loadPhoneIn, type PhoneIn } from "./load";
import { phoneInPage } from "./page";
import { answersOf } from "./questions";
import { type Choice, choiceOf } from "./state";

/** The phone-in's pages and its post, mounted by desk.ts before the booking's own `/bookings/:id`. */
export const newBookingRoutes = new Hono<DeskEnv>();

/** A step's answer: 422 when the customer entered has problems, else 200. */
const stepStatus = (flow: PhoneIn) =>
  flow.step.kind === "customer" && Object.keys(flow.step.problems).length > 0 ? 422 : 200;

newBookingRoutes.get("/bookings/new", async (c) => {
  const flow = await loadPhoneIn(c, choiceOf(c.req.query()));
  return phoneInPage(c, flow, undefined, stepStatus(flow));
});

/** The day's free times again, saying why the booking was not made (nothing changed). */
async function timesAgain(c: DeskContext, choice: Choice, reason: string, status: 409 | 422) {
  return phoneInPage(c, await loadPhoneIn(c, { ...choice, time: undefined }), reason, status);
}

newBookingRoutes.post("/bookings/new", async (c) => {
  await authorise(c, "bookings:write", "POST /bookings");
  const fields = await readForm(c);
  const choice = choiceOf(fields);
  const flow = await loadPhoneIn(c, choice);
  // A new customer's details come by post, to show the next step (the notes), not to book yet.
  if (fields.step === "customer") return phoneInPage(c, flow, undefined, stepStatus(flow));
  const { service, customer } = flow;
  // Something is missing or no longer valid: that step again.
  if (flow.step.kind !== "notes" || !service || !customer || !choice.time) return phoneInPage(c, flow, undefined, 422);
  // The service's questions and the notes, read as the booking page reads them.
  const { details, problems } = answersOf(fields, customer, service.questions ?? [], c.var.desk.locale);
  if (!details) return phoneInPage(c, { ...flow, entered: { values: fields, problems } }, undefined, 422);
  const parsed = CreateBookingSchema.safeParse({
    serviceId: service.id,
    ...choice.time,
    customerName: customer.name,
    customerEmail: customer.email,
    ...(customer.phone ? { customerPhone: customer.phone } : {}),
    ...(details.notes ? { notes: details.notes } : {}),
    ...(Object.keys(details.answers).length > 0 ? { answers: details.answers } : {}),
    // The person as the flow kept it: none for a service without people to choose.
    ...(flow.choice.person && flow.choice.person !== "any" ? { providerId: flow.choice.person } : {}),
  });
  // Every field was checked above by the same rules; what is left is the request's own shape.
  if (!parsed.success) return phoneInPage(c, flow, parsed.error.issues[0]?.message ?? "", 422);
  const request = parsed.data;
  // The notes step's form carries one attempt: a second click, or the same post sent again, books nothing more.
  const key = attemptKey(fields, "phone-in");
  const book = () =>
    idempotentUnder(c, key, request, 201, async (claim) => {
      const { booking, replayed } = await createBooking(
        c.env,
        c.var.db,
        { businessId: c.var.caller.businessId, actor: actorOf(c.var.caller) },
        request,
        claim,
      );
      return { body: { id: booking.id }, replayed };
    });
  try {
    const { body } = await firstClick(book);
    return c.redirect(`/office/bookings/${body.id}?done=created`, 303);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status >= 500) throw error;
    // The attempt's own answers, in the desk's words rather than the API's Idempotency-Key ones.
    const { newBooking } = c.var.desk.m;
    if (error.code === "idempotency_key_in_flight") return timesAgain(c, choice, newBooking.stillBooking, 409);
    if (error.code === "idempotency_key_reused") return timesAgain(c, choice, newBooking.alreadyBooked, 422);
    return timesAgain(c, choice, error.message, error.status === 409 ? 409 : 422);
  }
});
