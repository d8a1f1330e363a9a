/**
 * A service's page: new (`/office/setup/services/new`) or its edit (`/office/setup/services/{id}`),
 * every field `POST /services` takes but the questions and date overrides (those link to the API's
 * reference), and on the edit page the form that deactivates or activates it. Sent without
 * JavaScript; a refused form comes back as typed, the problems at their fields.
 */
import type { FormFields } from "../../../pages/form";
import type { toService } from "../../../services/records";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { ActiveForm, WeekFields, weekFields } from "../catalog-parts";
import { boundFields } from "../field";
import { setupPage } from "../frame";
import type { ProviderChoice } from "../providers";
import { formFieldsOf } from "../save";
import { numberFields } from "./read";
import { serviceWordsOf } from "./words";

export type Service = ReturnType<typeof toService>;
/** The choices the form offers: the business's people and rooms. */
export type ServiceChoices = { people: ProviderChoice[]; rooms: ProviderChoice[] };
export type ServiceState = { flash?: string; refused?: string; problems?: Record<string, string> };

/** The settings the form shows as they are stored (a number in digits, null empty, true ticked). */
const STORED = [
  ...numberFields,
  "name",
  "description",
  "timezone",
  "providerMode",
  "assignment",
  "limits",
  "maxActivePerCustomer",
  "requiresConfirmation",
  "bookableOnline",
] as const satisfies readonly (keyof Service)[];

/** Chosen ids as ticked boxes. */
const ticks = (ids: string[]) => Object.fromEntries(ids.map((id) => [id, true]));

/** A stored service as the form's fields (named by the API's paths; ticked boxes present). */
export const serviceFields = (s: Service): FormFields => ({
  ...formFieldsOf(Object.fromEntries(STORED.map((key) => [key, s[key]]))),
  ...formFieldsOf({ providerIds: ticks(s.providerIds), resourceIds: ticks(s.resourceIds) }),
  reminders: s.reminders.map((r) => r.offsetMinutes).join(", "),
  ...weekFields(s.weeklySchedule),
});

/** The service form's page; `service` absent for a new one. */
export function serviceFormPage(
  c: DeskContext,
  f: FormFields,
  choices: ServiceChoices,
  service?: Service,
  state: ServiceState = {},
  status: DeskStatus = 200,
) {
  const sw = serviceWordsOf(c.var.desk.locale);
  const problems = state.problems ?? {};
  const title = service ? service.name : sw.add;
  const form = boundFields(f, problems);
  const field = (name: keyof typeof sw & string, type = "text") => form.text(name, sw[name] as string, { type });
  const number = (name: keyof typeof sw & string) => field(name, "number");
  return setupPage(
    c,
    status,
    {
      title: title,
      back: { href: "/office/setup/services", label: sw.title },
      flash: state.flash,
      refused: state.refused,
    },
    <>
      <form
        method="post"
        action={service ? `/office/setup/services/${service.id}` : "/office/setup/services"}
        class="setupform"
      >
        {field("name")}
        {form.text("description", sw.description, { multiline: true })}
        {number("durationMinutes")}
        {number("capacity")}
        {number("slotIntervalMinutes")}
        {number("bufferBeforeMinutes")}
        {number("bufferAfterMinutes")}
        {field("timezone")}
        <fieldset>
          <legend>{sw.hours}</legend>
          <p class="muted small">{sw.hoursHint}</p>
          <WeekFields locale={c.var.desk.locale} fields={f} problems={problems} interval={sw.interval} />
        </fieldset>
        <fieldset>
          <legend>{sw.who}</legend>
          <p class="muted small">{sw.providerIds}</p>
          {choices.people.length === 0 && <p class="muted small">{sw.noProviders}</p>}
          {form.ticks("providerIds", choices.people)}
          {form.select("providerMode", sw.providerMode, ["one", "all"], sw.providerModes)}
          {form.select("assignment", sw.assignment, ["first", "balanced"], sw.assignments)}
        </fieldset>
        <fieldset>
          <legend>{sw.resourceIds}</legend>
          {choices.rooms.length === 0 && <p class="muted small">{sw.noRooms}</p>}
          {form.ticks("resourceIds", choices.rooms)}
        </fieldset>
        <fieldset>
          <legend>{sw.rules}</legend>
          {form.check("requiresConfirmation", sw.requiresConfirmation)}
          {form.check("bookableOnline", sw.bookableOnline)}
          {number("minNoticeMinutes")}
          {number("maxAdvanceDays")}
          {number("cancellationNoticeMinutes")}
          {number("rescheduleNoticeMinutes")}
          {form.text("limits.perDay", sw.perDay, { type: "number" })}
          {form.text("limits.perWeek", sw.perWeek, { type: "number" })}
          {number("maxActivePerCustomer")}
          {field("reminders")}
        </fieldset>
        <p class="muted small">
          {sw.inApi} <a href="/docs">{sw.apiLink}</a>
        </p>
        <button class="btn" type="submit">
          {service ? sw.save : sw.create}
        </button>
      </form>
      {service && (
        <ActiveForm
          action={`/office/setup/services/${service.id}/active`}
          active={service.active}
          label={service.active ? sw.deactivate : sw.activate}
          hint={sw.activeHint}
        />
      )}
    </>,
  );
}
