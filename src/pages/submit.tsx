/**
 * `POST /book/{slug}/book`: the details form sent; the hold becomes the booking through the
 * page's one path (src/booking-page/bookings.ts), then the confirmation. Anything wrong comes back as
 * the form with each problem at its field, or as fresh times when the hold is gone. A customer at
 * the service's limit cannot fix it by picking another time: their hold is released at once, and
 * the form comes back naming the limit at the e-mail field and naming the time, to hold it again.
 */

import { offeredService } from "../booking-page/availability";
import { bookPageHold } from "../booking-page/bookings";
import type { PageBusiness } from "../booking-page/business";
import { isLive, pageHoldOf, releasePageHold } from "../booking-page/holds";
import type { PublicService } from "../booking-page/services";
import { ApiError } from "../lib/api-error";
import { sameOrigin } from "../middleware/security";
import { flowView, openFor } from "./flow";
import { type Details, type FormFields, readDetails, readForm } from "./form";
import { backToTimes, flowOfForm, holdTime, isStart, notATime, showDetails, timesNotice } from "./hold";
import { flowPage, foreignForm, type PageContext, respond } from "./render";
import { type Flow, paramsOf } from "./state";
import { DetailsPage } from "./steps/details";
import { stepOf } from "./times-data";
import type { View } from "./view";

/** The API's problems at answers, as the form's fields name them (`q.<key>`). */
const answerProblems = (error: ApiError, fallback: string) =>
  Object.fromEntries(
    (error.errors ?? []).filter((e) => e.path.startsWith("answers.")).map((e) => [`q.${e.path.slice(8)}`, fallback]),
  );

/** A booking from a hold refused for its customer: the only `limit_reached` of a hold's booking. */
const atCustomerLimit = (error: unknown) =>
  error instanceof ApiError && error.code === "slot_unavailable" && error.extensions?.reason === "limit_reached";

type Found = { hold: Awaited<ReturnType<typeof pageHoldOf>>; token: string };

export async function bookFromForm(c: PageContext) {
  if (!sameOrigin(c.req.raw)) return foreignForm(c);
  // The page first: a body it cannot read is answered in the business's look.
  const page = await openFor(c, c.req.param("slug") as string);
  const fields = await readForm(c);
  const flow = flowOfForm(page.slug, fields);
  if (fields.hold === undefined) return holdAgainAndBook(c, page, flow, fields);
  const token = fields.token ?? "";
  const hold = await pageHoldOf(c.env, c.var.db, page, fields.hold.slice(0, 64), token);
  const service = await offeredService(c.var.db, page, hold.serviceId);
  const view = flowView(c, page, flow, service.timezone);
  if (!isLive(hold)) {
    return backToTimes(c, page, flow, service, view, hold.startTime, { status: 409, notice: view.m.times.expired });
  }
  const { details, problems } = readDetails(fields, service.questions, view.m);
  if (!details) return showDetails(c, page, flow, { hold, token }, { values: fields, problems });
  return bookHeld(c, page, { flow, service, view }, { hold, token }, { details, fields });
}

/** The form of an attempt refused at the customer's limit (no hold, the time named): held again, then booked. */
async function holdAgainAndBook(c: PageContext, page: PageBusiness, flow: Flow, fields: FormFields) {
  const service = await offeredService(c.var.db, page, fields.service ?? "");
  const view = flowView(c, page, flow, service.timezone);
  const start = fields.start ?? "";
  if (!isStart(start)) return notATime(c, flow, view);
  const { details, problems } = readDetails(fields, service.questions, view.m);
  if (!details) return showReleased(c, { flow, service, view }, new Date(start).toISOString(), fields, problems, 422);
  const placed = await holdTime(c, page, flow, service, view, start);
  if (placed instanceof Response) return placed;
  const hold = await pageHoldOf(c.env, c.var.db, page, placed.id, placed.holdToken);
  return bookHeld(c, page, { flow, service, view }, { hold, token: placed.holdToken }, { details, fields });
}

type Step = { flow: Flow; service: PublicService; view: View };

/** Books the live hold for the checked details: the confirmation, or the page that says what to do. */
async function bookHeld(
  c: PageContext,
  page: PageBusiness,
  { flow, service, view }: Step,
  { hold, token }: Found,
  sent: { details: Details; fields: FormFields },
) {
  try {
    const booking = await bookPageHold(c.env, c.var.db, page, { holdId: hold.id, holdToken: token, ...sent.details });
    const manageToken = (booking.manageUrl ?? "").split("/").pop() ?? "";
    const query = new URLSearchParams(paramsOf({ ...flow, service: undefined, tz: view.tz }));
    return c.redirect(`/book/${page.slug}/booked/${manageToken}?${query}`, 303);
  } catch (error) {
    if (atCustomerLimit(error)) {
      // Another time would be refused alike: the time goes back to everyone now, not in 10 minutes.
      await releasePageHold(c.env, c.var.db, page, hold.id);
      const problems = { email: view.m.fix.customerLimit };
      return showReleased(c, { flow, service, view }, hold.startTime, sent.fields, problems, 409);
    }
    const refusal = timesNotice(error, view);
    if (refusal) return backToTimes(c, page, flow, service, view, hold.startTime, refusal);
    if (error instanceof ApiError && error.code === "validation_failed") {
      const atAnswers = answerProblems(error, view.m.fix.choice);
      if (Object.keys(atAnswers).length > 0) {
        return showDetails(c, page, flow, { hold, token }, { values: sent.fields, problems: atAnswers });
      }
    }
    throw error;
  }
}

/** The details form for a time no longer held, with what was typed and each problem at its field. */
function showReleased(
  c: PageContext,
  { flow, service, view }: Step,
  startTime: string,
  values: FormFields,
  problems: Record<string, string>,
  status: 409 | 422,
) {
  return respond(
    c,
    status,
    flowPage(true),
    <DetailsPage {...stepOf(service, flow, view)} hold={{ startTime }} values={values} problems={problems} />,
  );
}
