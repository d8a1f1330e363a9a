/**
 * A room's page: new (`/office/setup/rooms/new`) or its edit (`/office/setup/rooms/{id}`) — name,
 * units, time zone and, when it has them, its own opening hours (its date overrides link to the
 * API's reference) — and on the edit page the form that deactivates or activates it. Also the list.
 */
import type { FormFields } from "../../../pages/form";
import type { toResource } from "../../../resources/records";
import type { DeskContext } from "../../frame/desk";
import type { DeskStatus } from "../../frame/layout";
import { ActiveForm, type CatalogItem, catalogPage, WeekFields, weekFields } from "../catalog-parts";
import { boundFields } from "../field";
import { setupPage } from "../frame";
import { roomWordsOf } from "./words";

export type Room = ReturnType<typeof toResource>;
export type RoomState = { flash?: string; refused?: string; problems?: Record<string, string> };

/** A stored room as the form's fields. */
export function roomFields(room: Room): FormFields {
  const fields: FormFields = { name: room.name, quantity: String(room.quantity), timezone: room.timezone };
  if (room.weeklySchedule) Object.assign(fields, { ownHours: "on" }, weekFields(room.weeklySchedule));
  return fields;
}

/** The rooms list. */
export const roomsPage = (c: DeskContext, items: CatalogItem[], flash?: string) =>
  catalogPage(c, roomWordsOf(c.var.desk.locale), "/office/setup/rooms/new", items, flash);

/** The room form's page; `room` absent for a new one. */
export function roomFormPage(
  c: DeskContext,
  f: FormFields,
  room?: Room,
  state: RoomState = {},
  status: DeskStatus = 200,
) {
  const rw = roomWordsOf(c.var.desk.locale);
  const problems = state.problems ?? {};
  const title = room ? room.name : rw.add;
  const form = boundFields(f, problems);
  const field = (name: "name" | "quantity" | "timezone", type = "text") => form.text(name, rw[name], { type });
  return setupPage(
    c,
    status,
    {
      title: title,
      back: { href: "/office/setup/rooms", label: rw.title },
      flash: state.flash,
      refused: state.refused,
    },
    <>
      <form method="post" action={room ? `/office/setup/rooms/${room.id}` : "/office/setup/rooms"} class="setupform">
        {field("name")}
        {field("quantity", "number")}
        {field("timezone")}
        <fieldset>
          <legend>{rw.hours}</legend>
          {form.check("ownHours", rw.ownHours)}
          <p class="muted small">{rw.hoursHint}</p>
          <WeekFields locale={c.var.desk.locale} fields={f} problems={problems} interval={rw.interval} />
        </fieldset>
        <p class="muted small">
          {rw.inApi} <a href="/docs">{rw.apiLink}</a>
        </p>
        <button class="btn" type="submit">
          {room ? rw.save : rw.create}
        </button>
      </form>
      {room && (
        <ActiveForm
          action={`/office/setup/rooms/${room.id}/active`}
          active={room.active}
          label={room.active ? rw.deactivate : rw.activate}
          hint={rw.activeHint}
        />
      )}
    </>,
  );
}
