/**
 * `/office/customers/{id}/erase`: the confirmation step before an erasure (owner only): what
 * erasing does, and a form that asks for the customer's e-mail typed out before it posts.
 */
import type { DeskContext } from "../frame/desk";
import { type DeskStatus, deskPage } from "../frame/layout";
import type { CustomerFacts } from "./load";

/** The confirmation page; after a mismatch, again with the reason (then with that status). */
export function erasePage(c: DeskContext, customer: CustomerFacts, refused?: string, status: DeskStatus = 200) {
  const { m } = c.var.desk;
  const w = m.customers;
  const title = w.eraseTitle(customer.name);
  return deskPage(c, status, {
    title,
    section: "customers",
    body: (
      <div class="stack">
        <p class="small">
          <a href={`/office/customers/${customer.id}`}>← {w.back}</a>
        </p>
        <h1>{title}</h1>
        {refused && (
          <p class="refused" role="alert">
            <strong>{m.booking.refused}:</strong> {refused}
          </p>
        )}
        <p>{w.eraseText}</p>
        <section class="deskactions" aria-label={w.erase}>
          <form method="post" action={`/office/customers/${customer.id}/erase`}>
            <label for="confirm">
              {w.eraseConfirm} ({customer.email})
            </label>
            <input id="confirm" name="confirm" type="text" autocomplete="off" required />
            <div class="row">
              <button class="btn danger" type="submit">
                {w.erase}
              </button>
            </div>
          </form>
        </section>
      </div>
    ),
  });
}
