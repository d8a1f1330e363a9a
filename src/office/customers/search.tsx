/** `/office/customers`: a search by name or e-mail (GET `?q=`), its results linking to each customer. */
import type { DeskContext } from "../frame/desk";
import { deskPage } from "../frame/layout";
import type { CustomerFacts } from "./load";

/** The search page: the form, then the customers found (or the newest, without a term). */
export function customerSearchPage(
  c: DeskContext,
  term: string,
  found: { items: CustomerFacts[]; hasNext: boolean; total: number },
  flash?: string,
) {
  const { m } = c.var.desk;
  const w = m.customers;
  return deskPage(c, 200, {
    title: w.title,
    section: "customers",
    body: (
      <div class="stack">
        <h1>{w.title}</h1>
        {flash && (
          <p class="flash" role="status">
            {flash}
          </p>
        )}
        <form class="pick" method="get" action="/office/customers">
          <label for="q">{w.search}</label>
          <input id="q" name="q" type="search" value={term} maxlength={200} autocomplete="off" />
          <button type="submit">{w.find}</button>
        </form>
        <section aria-labelledby="results">
          <h2 id="results">{term ? w.found(found.total) : w.latest}</h2>
          {found.items.length === 0 ? <p class="muted">{w.none}</p> : <CustomerList customers={found.items} />}
          {found.hasNext && <p class="muted small">{w.more}</p>}
        </section>
      </div>
    ),
  });
}

/** Customers as links to their pages, with their e-mail and phone. */
export function CustomerList({ customers, href }: { customers: CustomerFacts[]; href?: (id: string) => string }) {
  return (
    <ul class="people">
      {customers.map((customer) => (
        <li>
          <a href={href ? href(customer.id) : `/office/customers/${customer.id}`}>
            <strong>{customer.name}</strong>
          </a>{" "}
          <span class="muted">
            · {customer.email}
            {customer.phone && ` · ${customer.phone}`}
          </span>
        </li>
      ))}
    </ul>
  );
}
