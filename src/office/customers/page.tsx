/**
 * `/office/customers/{id}`: the customer's facts, their bookings (each linking to its page), the
 * edit form to whom may change them and, to owners, the way to erase them.
 */
import { formatsOf } from "../../pages/i18n/format";
import type { DeskContext } from "../frame/desk";
import { type DeskStatus, deskPage } from "../frame/layout";
import { Notices } from "../frame/notices";
import type { CustomerView } from "./load";

/** What the page says above the facts, and the form's values and problems after a refused edit. */
export type CustomerNotice = {
  flash?: string;
  refused?: string;
  values?: Record<string, string>;
  problems?: Record<string, string>;
};

/** The customer's page, with the last action's flash or a refusal (then with that status). */
export function customerDeskPage(
  c: DeskContext,
  view: CustomerView,
  notice: CustomerNotice = {},
  status: DeskStatus = 200,
) {
  const { m, locale, timezone } = c.var.desk;
  const f = formatsOf(locale, timezone);
  const { customer } = view;
  const w = m.customers;
  const b = m.booking;
  const value = (name: "name" | "email" | "phone") => notice.values?.[name] ?? customer[name] ?? "";
  const problem = (name: string) => notice.problems?.[name];
  const field = (name: "name" | "email" | "phone", label: string, type: string, autocomplete: string) => (
    <>
      <label for={`c-${name}`}>{label}</label>
      <input
        id={`c-${name}`}
        name={name}
        type={type}
        value={value(name)}
        autocomplete={autocomplete}
        required={name !== "phone"}
        aria-invalid={problem(name) ? "true" : undefined}
        aria-describedby={problem(name) ? `c-${name}-problem` : undefined}
      />
      {problem(name) && (
        <p id={`c-${name}-problem`} class="err">
          {problem(name)}
        </p>
      )}
    </>
  );
  return deskPage(c, status, {
    title: customer.name,
    section: "customers",
    body: (
      <div class="stack">
        <p class="small">
          <a href="/office/customers">← {w.title}</a>
        </p>
        <h1>{customer.name}</h1>
        <Notices notice={notice} refusedLabel={b.refused} />
        <div class="grid2">
          <section aria-labelledby="facts">
            <h2 id="facts">{b.customer}</h2>
            <dl class="facts2">
              <dt>{b.email}</dt>
              <dd>
                <a href={`mailto:${customer.email}`}>{customer.email}</a>
              </dd>
              <dt>{b.phone}</dt>
              <dd>{customer.phone ?? b.none}</dd>
            </dl>
          </section>
          {view.canEdit && (
            <section class="deskactions" aria-labelledby="edit">
              <h2 id="edit">{w.edit}</h2>
              <form method="post" action={`/office/customers/${customer.id}`}>
                {field("name", w.name, "text", "off")}
                {field("email", b.email, "email", "off")}
                {field("phone", b.phone, "tel", "off")}
                <div class="row">
                  <button class="btn" type="submit">
                    {w.save}
                  </button>
                </div>
              </form>
              {view.canErase && (
                <p>
                  <a class="btn danger" href={`/office/customers/${customer.id}/erase`}>
                    {w.erase}
                  </a>
                </p>
              )}
            </section>
          )}
        </div>
        <section aria-labelledby="bookings">
          <h2 id="bookings">{w.bookings}</h2>
          {view.bookings.length === 0 ? (
            <p class="muted">{w.noBookings}</p>
          ) : (
            <ul class="people">
              {view.bookings.map((booking) => (
                <li>
                  <a href={`/office/bookings/${booking.id}`}>
                    {f.dateTime(booking.startTime)} · {view.serviceNames.get(booking.serviceId) ?? booking.serviceId}
                  </a>{" "}
                  <span class="muted">· {m.status[booking.status] ?? booking.status}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    ),
  });
}
