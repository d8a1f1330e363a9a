/**
 * `POST /book/{slug}/book`: the details form sent; the hold becomes the booking through the
 * page's one path (src/public/bookings.ts), then the confirmation. Anything wrong comes back as
 * the form with each problem at its field, or as fresh times when the hold is gone.
 */
import { ApiError } from "../lib/errors";
import { offeredService } from "../public/availability";
import { bookPageHold } from "../public/bookings";
import { isLive, pageHoldOf } from "../public/holds";
import { flowView, openFor } from "./flow";
import { readDetails, readForm } from "./form";
import { sameOrigin } from "./headers";
import { backToTimes, flowOfForm, showDetails, timesNotice } from "./hold";
import { foreignForm, type PageContext } from "./render";
import { paramsOf } from "./state";

/** The API's problems at answers, as the form's fields name them (`q.<key>`). */
const answerProblems = (error: ApiError, fallback: string) =>
  Object.fromEntries(
    (error.errors ?? []).filter((e) => e.path.startsWith("answers.")).map((e) => [`q.${e.path.slice(8)}`, fallback]),
  );

export async function bookFromForm(c: PageContext) {
  if (!sameOrigin(c.req.raw)) return foreignForm(c);
  // The page first: a body it cannot read is answered in the business's look.
  const page = await openFor(c, c.req.param("slug") as string);
  const fields = await readForm(c);
  const flow = flowOfForm(page.slug, fields);
  const token = fields.token ?? "";
  const hold = await pageHoldOf(c.env, c.var.db, page, (fields.hold ?? "").slice(0, 64), token);
  const service = await offeredService(c.var.db, page, hold.serviceId);
  const view = flowView(c, page, flow, service.timezone);
  if (!isLive(hold)) {
    return backToTimes(c, page, flow, service, view, hold.startTime, { status: 409, notice: view.m.times.expired });
  }
  const { details, problems } = readDetails(fields, service.questions, view.m);
  if (!details) return showDetails(c, page, flow, { hold, token }, { values: fields, problems });
  try {
    const booking = await bookPageHold(c.env, c.var.db, page, { holdId: hold.id, holdToken: token, ...details });
    const manageToken = (booking.manageUrl ?? "").split("/").pop() ?? "";
    const query = new URLSearchParams(paramsOf({ ...flow, service: undefined, tz: view.tz }));
    return c.redirect(`/book/${page.slug}/booked/${manageToken}?${query}`, 303);
  } catch (error) {
    const refusal = timesNotice(error, view);
    if (refusal) return backToTimes(c, page, flow, service, view, hold.startTime, refusal);
    if (error instanceof ApiError && error.code === "validation_failed") {
      const atAnswers = answerProblems(error, view.m.fix.choice);
      if (Object.keys(atAnswers).length > 0) {
        return showDetails(c, page, flow, { hold, token }, { values: fields, problems: atAnswers });
      }
    }
    throw error;
  }
}
