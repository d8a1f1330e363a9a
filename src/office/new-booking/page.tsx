/**
 * `/office/bookings/new`: the phone-in, one step per page — what was chosen so far (each with a
 * link back to change it), then the next step. A refusal (a time taken meanwhile) says why above
 * the step it sends the member back to.
 */
import { formatsOf } from "../../pages/i18n/format";
import type { DeskContext } from "../frame/desk";
import { type DeskStatus, deskPage } from "../frame/layout";
import type { PhoneIn } from "./load";
import { before, type Choice, stepHref } from "./state";
import { CustomerStep, NotesStep, ProviderStep, ServiceStep, TimeStep } from "./steps";

/** The address of the phone-in without the visit's later service `i` (its time to pick again). */
const withoutLater = (choice: Choice, i: number) => {
  const more = (choice.more ?? []).filter((_, j) => j !== i);
  return stepHref(before(choice, "add"), { more: more.length > 0 ? more : undefined, day: choice.day });
};

/** The phone-in's page at its next step, with a refusal's reason (then with that status). */
export function phoneInPage(c: DeskContext, flow: PhoneIn, refused?: string, status: DeskStatus = 200) {
  const { m, locale, timezone } = c.var.desk;
  const f = formatsOf(locale, timezone);
  const w = m.newBooking;
  const { choice, step } = flow;
  const change = (name: Parameters<typeof before>[1]) => (
    <a class="small" href={stepHref(before(choice, name))}>
      {w.change}
    </a>
  );
  const props = { m, f, choice };
  return deskPage(c, status, {
    title: w.title,
    section: "new",
    body: (
      <div class="stack">
        <h1>{w.title}</h1>
        {refused && (
          <p class="refused" role="alert">
            <strong>{w.taken}:</strong> {refused}
          </p>
        )}
        {flow.service && (
          <section aria-labelledby="chosen">
            <h2 id="chosen">{w.chosen}</h2>
            <dl class="facts2">
              <dt>{w.service}</dt>
              <dd>
                {flow.service.name} ({flow.service.durationMinutes} min) {change("service")}
              </dd>
              {choice.person && (
                <>
                  <dt>{w.person}</dt>
                  <dd>
                    {flow.person ?? w.anyone} {change("person")}
                  </dd>
                </>
              )}
              {(flow.later ?? []).map((later, i) => (
                <>
                  <dt>{w.andThen}</dt>
                  <dd>
                    {later.service.name} ({later.service.durationMinutes} min)
                    {later.choice.person && ` · ${later.person ?? w.anyone}`}{" "}
                    <a class="small" href={withoutLater(choice, i)}>
                      {w.remove}
                    </a>
                  </dd>
                </>
              ))}
              {choice.time && (
                <>
                  <dt>{w.time}</dt>
                  <dd>
                    {f.dateTime(choice.time.startTime)}–{f.time(choice.time.endTime)}{" "}
                    <span class="muted">· {f.zone()}</span> {change("day")}
                  </dd>
                </>
              )}
              {flow.customer && (
                <>
                  <dt>{w.customer}</dt>
                  <dd>
                    {flow.customer.name} · {flow.customer.email}
                    {flow.customer.phone && ` · ${flow.customer.phone}`} {change("customer")}
                  </dd>
                </>
              )}
            </dl>
          </section>
        )}
        {step.kind === "service" && <ServiceStep {...props} step={step} />}
        {step.kind === "person" && <ProviderStep {...props} step={step} />}
        {step.kind === "time" && <TimeStep {...props} step={step} />}
        {step.kind === "customer" && <CustomerStep {...props} step={step} />}
        {step.kind === "notes" && <NotesStep {...props} step={step} flow={flow} />}
      </div>
    ),
  });
}
