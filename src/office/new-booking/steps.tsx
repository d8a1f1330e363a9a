/**
 * The phone-in's steps, each a plain form or list of links (no JavaScript needed): the choices so
 * far ride along in hidden fields (GET) until the last step posts them with the notes.
 */
import { type Formats, startOfDay } from "../../pages/i18n/format";
import { CustomerList } from "../customers/search";
import { AttemptField } from "../frame/attempt";
import type { DeskWords } from "../frame/en";
import type { PhoneIn, PhoneInStep } from "./load";
import { Questions, questionPrefix } from "./questions";
import { type Choice, type ChoiceName, choiceParams, stepHref } from "./state";

type Props<K extends PhoneInStep["kind"]> = {
  m: DeskWords;
  f: Formats;
  choice: Choice;
  step: Extract<PhoneInStep, { kind: K }>;
};

/** The choices as hidden fields, but for the ones the form asks itself. */
function Hidden({ choice, except = [] }: { choice: Choice; except?: ChoiceName[] }) {
  return (
    <>
      {choiceParams(choice)
        .filter(([name]) => !except.includes(name))
        .map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
    </>
  );
}

/** Step 1: the business's active services (for the first one, or the next one of a visit). */
export function ServiceStep({ m, choice, step }: Props<"service">) {
  const w = m.newBooking;
  if (step.services.length === 0) return <p class="muted">{w.noServices}</p>;
  const href = (id: string) =>
    step.adding
      ? stepHref(choice, { add: undefined, more: [...(choice.more ?? []), { service: id }] })
      : stepHref({ service: id });
  return (
    <section aria-labelledby="step">
      <h2 id="step">{step.adding ? w.nextService : w.service}</h2>
      {step.adding && (
        <p class="small">
          <a href={stepHref(choice, { add: undefined })}>{w.noMore}</a>
        </p>
      )}
      <ul class="choices">
        {step.services.map((service) => (
          <li>
            <a class="choice" href={href(service.id)}>
              <span class="body">
                <span class="name">{service.name}</span>
                <span class="desc">{service.durationMinutes} min</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Step 2: anyone free, or one of the service's people (of a visit's later service: `segment`). */
export function ProviderStep({ m, choice, step }: Props<"person">) {
  const w = m.newBooking;
  const { segment } = step;
  const href = (id: string) =>
    segment === undefined
      ? stepHref(choice, { person: id })
      : stepHref(choice, { more: choice.more?.map((s, i) => (i === segment ? { ...s, person: id } : s)) });
  return (
    <section aria-labelledby="step">
      <h2 id="step">{w.person}</h2>
      <ul class="choices">
        {[{ id: "any", name: w.anyone }, ...step.people].map((person) => (
          <li>
            <a class="choice" href={href(person.id)}>
              <span class="body">
                <span class="name">{person.name}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Step 3: a day (GET) and its free times, each a link to the next step. */
export function TimeStep({ m, f, choice, step }: Props<"time">) {
  const w = m.newBooking;
  return (
    <section aria-labelledby="step">
      <h2 id="step">{w.time}</h2>
      {step.canAdd && (
        <p class="small">
          <a href={stepHref(choice, { add: "1", day: step.day })}>{w.addService}</a>
        </p>
      )}
      <form class="pick" method="get" action="/office/bookings/new">
        <Hidden choice={choice} except={["day", "time"]} />
        <label for="day">{w.day}</label>
        <input id="day" name="day" type="date" value={step.day} required />
        <button type="submit">{w.showTimes}</button>
      </form>
      <p class="muted small">
        {f.date(startOfDay(step.day, f.timeZone) + 12 * 3_600_000)} · {f.zone()}
      </p>
      {step.times.length === 0 ? (
        <p class="muted">{w.noTimes}</p>
      ) : (
        <ul class="slots">
          {step.times.map((time) => (
            <li>
              <a class="slot" href={stepHref(choice, { day: step.day, time })}>
                {f.time(time.startTime)}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A text field of the new customer's form, with its problem. */
function Field(props: {
  name: "name" | "email" | "phone";
  label: string;
  type: string;
  value?: string;
  problem?: string;
}) {
  const { name, label, type, value, problem } = props;
  return (
    <>
      <label for={`n-${name}`}>{label}</label>
      <input
        id={`n-${name}`}
        name={name}
        type={type}
        value={value ?? ""}
        autocomplete="off"
        required={name !== "phone"}
        aria-invalid={problem ? "true" : undefined}
        aria-describedby={problem ? `n-${name}-problem` : undefined}
      />
      {problem && (
        <p id={`n-${name}-problem`} class="err">
          {problem}
        </p>
      )}
    </>
  );
}

/** Step 4: find a customer (GET `q`) and pick one, or enter a new one's details. */
export function CustomerStep({ m, choice, step }: Props<"customer">) {
  const w = m.newBooking;
  const b = m.booking;
  const kept: ChoiceName[] = ["customer", "name", "email", "phone", "q"];
  return (
    <section aria-labelledby="step" class="deskactions">
      <h2 id="step">{w.customer}</h2>
      <form class="pick" method="get" action="/office/bookings/new">
        <Hidden choice={choice} except={kept} />
        <label for="q">{w.findCustomer}</label>
        <input id="q" name="q" type="search" value={choice.q ?? ""} maxlength={200} autocomplete="off" />
        <button type="submit">{m.customers.find}</button>
      </form>
      {step.found && step.found.length === 0 && <p class="muted">{m.customers.none}</p>}
      {step.found && step.found.length > 0 && (
        <>
          <h3>{w.pick}</h3>
          <CustomerList
            customers={step.found}
            href={(id) =>
              stepHref(choice, { customer: id, q: undefined, name: undefined, email: undefined, phone: undefined })
            }
          />
        </>
      )}
      <h3>{w.newCustomer}</h3>
      {/* Posted: a new customer's details never sit in an address (history, logs, a referrer). */}
      <form method="post" action="/office/bookings/new">
        <input type="hidden" name="step" value="customer" />
        <Hidden choice={choice} except={kept} />
        <Field name="name" label={m.customers.name} type="text" value={choice.name} problem={step.problems.name} />
        <Field name="email" label={b.email} type="email" value={choice.email} problem={step.problems.email} />
        <Field name="phone" label={b.phone} type="tel" value={choice.phone} problem={step.problems.phone} />
        <div class="row">
          <button class="btn" type="submit">
            {w.next}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Step 5: the services' questions, the notes, and the post that books. */
export function NotesStep({ m, choice, flow }: Props<"notes"> & { flow: PhoneIn }) {
  const w = m.newBooking;
  const problem = flow.entered?.problems.notes;
  const locale = m.lang === "de" ? "de" : "en";
  const later = flow.later ?? [];
  return (
    <section aria-labelledby="step" class="deskactions">
      <h2 id="step">{m.booking.notes}</h2>
      <form method="post" action="/office/bookings/new">
        <Hidden choice={{ ...choice, q: undefined }} />
        <AttemptField value={flow.entered?.values.attempt} />
        {later.length === 0 && (
          <Questions
            questions={flow.service?.questions ?? []}
            locale={locale}
            values={flow.entered?.values}
            problems={flow.entered?.problems}
          />
        )}
        {/* A visit asks each service's own questions, each group named by its service. */}
        {[flow.service, ...later.map((l) => l.service)].map((service, i) =>
          later.length === 0 || (service?.questions ?? []).length === 0 ? null : (
            <fieldset>
              <legend>{service?.name}</legend>
              <Questions
                questions={service?.questions ?? []}
                prefix={questionPrefix(i)}
                locale={locale}
                values={flow.entered?.values}
                problems={flow.entered?.problems}
              />
            </fieldset>
          ),
        )}
        <label for="notes">{w.notes}</label>
        <textarea
          id="notes"
          name="notes"
          rows={4}
          maxlength={2000}
          aria-invalid={problem ? "true" : undefined}
          aria-describedby={problem ? "notes-err" : undefined}
        >
          {flow.entered?.values.notes ?? ""}
        </textarea>
        {problem && (
          <p class="err" id="notes-err">
            {problem}
          </p>
        )}
        <div class="row">
          <button class="btn" type="submit">
            {w.book}
          </button>
        </div>
      </form>
    </section>
  );
}
