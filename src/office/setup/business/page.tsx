/**
 * `/office/setup/business`: the business's settings as `PATCH /business` takes them — name, booking
 * page address (slug), time zone, language, contact e-mail, the booking page (on, heading, accent
 * colour), e-mails to customers (on, sender name, reply-to) and what a conflict tells the customer.
 * One form, sent without JavaScript; a refused one comes back as typed with the problems at their fields.
 */

import type { BusinessRow } from "../../../business/records";
import type { FormFields } from "../../../pages/form";
import { locales } from "../../../types/business";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { boundFields } from "../field";
import { setupPage, toSetup } from "../frame";
import { formFieldsOf } from "../save";
import { businessWordsOf } from "./words";

/** What the page says besides the settings: a flash, or a refusal with the form as sent and its problems. */
export type BusinessState = { flash?: string; refused?: string; sent?: FormFields; problems?: Record<string, string> };

/** The settings as the form's fields (named by the API's paths). */
export const businessFields = (row: BusinessRow): FormFields =>
  formFieldsOf({
    name: row.name,
    slug: row.slug,
    timezone: row.timezone,
    locale: row.locale,
    contactEmail: row.contactEmail,
    bookingPage: row.bookingPage,
    emails: row.emails,
    conflicts: row.conflicts,
  });

/** The business settings page. */
export function businessPage(c: DeskContext, row: BusinessRow, state: BusinessState = {}, status: DeskStatus = 200) {
  const b = businessWordsOf(c.var.desk.locale);
  const f = state.sent ?? businessFields(row);
  const { text, check, select } = boundFields(f, state.problems ?? {});
  return setupPage(
    c,
    status,
    { title: b.title, back: toSetup(c), flash: state.flash, refused: state.refused },
    <form method="post" action="/office/setup/business" class="setupform">
      <input type="hidden" name="version" value={String(row.version)} />
      {text("name", b.name)}
      {text("slug", b.slug, { hint: b.slugHint(new URL(c.req.url).origin) })}
      {text("timezone", b.timezone, { hint: b.timezoneHint })}
      {select("locale", b.locale, locales, b.localeNames)}
      {text("contactEmail", b.contactEmail, { type: "email" })}
      <fieldset>
        <legend>{b.bookingPage}</legend>
        {check("bookingPage.enabled", b.bookingPageEnabled)}
        {text("bookingPage.title", b.bookingPageTitle)}
        {text("bookingPage.accentColor", b.accentColor)}
      </fieldset>
      <fieldset>
        <legend>{b.emails}</legend>
        {check("emails.enabled", b.emailsEnabled)}
        {text("emails.fromName", b.fromName)}
        {text("emails.replyTo", b.replyTo, { type: "email" })}
      </fieldset>
      <fieldset>
        <legend>{b.conflicts}</legend>
        {check("conflicts.notifyCustomer", b.notifyCustomer)}
      </fieldset>
      <button class="btn" type="submit">
        {b.save}
      </button>
    </form>,
  );
}
