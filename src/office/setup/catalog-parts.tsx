/**
 * What the setup pages of services, rooms and providers share: the catalog's list (active first, then inactive, each a link
 * to its edit page), the weekly hours fields (as the person's page has them, named `mon.0` …),
 * the form that deactivates or activates one, and the stored hours as those fields.
 */
import type { Child } from "hono/jsx";
import type { FormFields } from "../../pages/form";
import type { WeeklySchedule } from "../../types/schedule";
import type { DeskContext } from "../frame/desk";
import { TextField } from "./field";
import { setupPage, toSetup } from "./frame";
import { intervalText, SLOTS, slotName, weekOrder } from "./hours";

/** One row of a list: its page's address, its name, what to say after it, and whether it is active. */
export type CatalogItem = { href: string; name: string; detail: string; active: boolean };

/** The list: the active ones, then the inactive ones under their own heading. */
export function CatalogList(props: { items: CatalogItem[]; none: string; inactive: string; inactiveTitle: string }) {
  const list = (items: CatalogItem[]) => (
    <ul class="links">
      {items.map((item) => (
        <li>
          <a href={item.href}>{item.name}</a> <span class="muted">· {item.detail}</span>
          {!item.active && <span class="muted"> · {props.inactive}</span>}
        </li>
      ))}
    </ul>
  );
  const active = props.items.filter((i) => i.active);
  const inactive = props.items.filter((i) => !i.active);
  return (
    <>
      {active.length === 0 ? <p class="muted">{props.none}</p> : list(active)}
      {inactive.length > 0 && (
        <section aria-labelledby="inactive">
          <h2 id="inactive">{props.inactiveTitle}</h2>
          {list(inactive)}
        </section>
      )}
    </>
  );
}

/** The words a catalog's list page says. */
export type CatalogWords = {
  title: string;
  add: string;
  none: string;
  inactive: string;
  inactiveTitle: string;
  intro?: string;
};

/** A catalog's list page (services, rooms): its intro, the button that adds one, and the list. */
export function catalogPage(
  c: DeskContext,
  words: CatalogWords,
  addHref: string,
  items: CatalogItem[],
  flash?: string,
) {
  return setupPage(
    c,
    200,
    { title: words.title, back: toSetup(c), flash },
    <>
      {words.intro && <p class="muted">{words.intro}</p>}
      <p>
        <a class="btn" href={addHref}>
          {words.add}
        </a>
      </p>
      <CatalogList items={items} none={words.none} inactive={words.inactive} inactiveTitle={words.inactiveTitle} />
    </>,
  );
}

/** A weekday's name in the page's language (2024-01-01 was a Monday). */
const dayName = (locale: string, index: number) =>
  new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2024, 0, 1 + index));

/** The weekly hours as the form's fields. */
export function weekFields(week: WeeklySchedule): FormFields {
  const fields: FormFields = {};
  for (const day of weekOrder) {
    for (const [i, iv] of (week[day] ?? []).entries()) fields[slotName(day, i)] = intervalText(iv);
  }
  return fields;
}

/** How many interval fields `day` needs: three, or as many as `fields` holds for it (up to twelve are allowed). */
function slotsOf(fields: FormFields, day: string): number {
  let last = -1;
  for (const name of Object.keys(fields)) {
    const [d, n] = name.split(".");
    if (d === day && n !== undefined && /^\d+$/.test(n)) last = Math.max(last, Number(n));
  }
  return Math.max(SLOTS, last + 1);
}

/**
 * The weekly hours' fields, filled from `fields` (as sent when the form comes back, else the
 * stored hours through `weekFields`): every interval a day has gets its field, never only the first three.
 */
export function WeekFields(props: {
  locale: string;
  fields: FormFields;
  problems: Record<string, string>;
  interval: (day: string, n: number) => string;
}) {
  return (
    <>
      {weekOrder.map((day, index) => {
        const name = dayName(props.locale, index);
        return (
          <fieldset class="dayhours">
            <legend>{name}</legend>
            <div class="slots">
              {Array.from({ length: slotsOf(props.fields, day) }, (_, slot) => {
                const field = slotName(day, slot);
                return (
                  <TextField
                    name={field}
                    label={props.interval(name, slot + 1)}
                    value={props.fields[field]}
                    problem={props.problems[field]}
                    hiddenLabel
                  />
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </>
  );
}

/** The form that deactivates an active one or activates an inactive one. */
export function ActiveForm(props: { action: string; active: boolean; label: string; hint: Child }) {
  return (
    <form method="post" action={props.action} class="setupform">
      <input type="hidden" name="active" value={props.active ? "false" : "true"} />
      <p class="muted small">{props.hint}</p>
      <button class={props.active ? "btn ghost" : "btn"} type="submit">
        {props.label}
      </button>
    </form>
  );
}
