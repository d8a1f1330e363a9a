/**
 * `/office/bookings/new`: the phone-in. Each step is a GET carrying the choices so far, except a
 * new customer's details, which are posted (kept out of addresses) and then travel in the notes
 * step's form; the last posts them with the notes, and the booking is made by the API's own create
 * path after the same role check, with the member as the actor the audit records (orders.ts): one
 * service as `POST /bookings` runs it (`createBooking`), several back to back as `POST
 * /appointments` runs it (`createVisit`, all or none). Done, 303 to the (first) booking's page with
 * a flash; a time taken meanwhile (or refused by any rule), the day's free times again with the
 * reason. Owner and front desk only: staff get the API's 403. The notes step's form carries an
 * attempt id, the post's Idempotency-Key: a double click books once.
 */
import { Hono } from "hono";
import { ApiError } from "../../lib/api-error";
import { idempotentUnder } from "../../lib/idempotency";
import { readForm } from "../../pages/form";
import { attemptKey, firstClick } from "../frame/attempt";
import { authorise } from "../frame/authorise";
import type { DeskContext, DeskEnv } from "../frame/desk";
import { loadPhoneIn, type PhoneIn } from "./load";
import { bookingOrder, visitOrder } from "./orders";
import { phoneInPage } from "./page";
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

/** What a refusal says: a visit's names the service that could not be booked. */
function reasonOf(c: DeskContext, flow: PhoneIn, error: ApiError) {
  const segment = error.extensions?.segment ?? /^segments\.(\d+)\./.exec(error.errors?.[0]?.path ?? "")?.[1];
  const services = [flow.service, ...(flow.later ?? []).map((l) => l.service)];
  const service = flow.later?.length ? services[Number(segment)] : undefined;
  return service
    ? `${c.var.desk.m.newBooking.visitTaken(Number(segment) + 1, service.name)} ${error.message}`
    : error.message;
}

newBookingRoutes.post("/bookings/new", async (c) => {
  await authorise(c, "bookings:write", "POST /bookings");
  const fields = await readForm(c);
  const choice = choiceOf(fields);
  const flow = await loadPhoneIn(c, choice);
  // A new customer's details come by post, to show the next step (the notes), not to book yet.
  if (fields.step === "customer") return phoneInPage(c, flow, undefined, stepStatus(flow));
  // Something is missing or no longer valid: that step again.
  if (flow.step.kind !== "notes" || !flow.service || !flow.customer || !flow.choice.time) {
    return phoneInPage(c, flow, undefined, 422);
  }
  const ready = { ...flow, service: flow.service, customer: flow.customer, time: flow.choice.time };
  const prepared = flow.later?.length ? await visitOrder(c, ready, fields) : bookingOrder(c, ready, fields);
  if ("problems" in prepared) {
    const { problems, refused } = prepared;
    return phoneInPage(c, { ...flow, entered: { values: fields, problems } }, refused, 422);
  }
  // The notes step's form carries one attempt: a second click, or the same post sent again, books nothing more.
  const key = attemptKey(fields, "phone-in");
  const book = () => idempotentUnder(c, key, prepared.request, 201, prepared.book);
  try {
    const { body } = await firstClick(book);
    return c.redirect(`/office/bookings/${body.id}?done=${prepared.done}`, 303);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status >= 500) throw error;
    // The attempt's own answers, in the desk's words rather than the API's Idempotency-Key ones.
    const { newBooking } = c.var.desk.m;
    if (error.code === "idempotency_key_in_flight") return timesAgain(c, choice, newBooking.stillBooking, 409);
    if (error.code === "idempotency_key_reused") return timesAgain(c, choice, newBooking.alreadyBooked, 422);
    return timesAgain(c, choice, reasonOf(c, flow, error), error.status === 409 ? 409 : 422);
  }
});
