/**
 * A room's page: new (`/office/setup/rooms/new`) or its edit (`/office/setup/rooms/{id}`) — name,
 * units, time zone and, when it has them, its own opening hours (its date overrides link to the
 * API's reference) — and on the edit page the form that deactivates or activates it. Also the list.
 */
import type { FormFields } from "../../../pages/form";
import type { toResource } from "../../../resources/records";
import type { DeskContext } from "../../frame/desk";
import { type DeskStatus, deskPage } from "../../frame/layout";
import { ActiveForm, type CatalogItem, CatalogList, WeekFields, weekFields } from "../catalog-parts";
import { CheckField, SetupNotice, TextField } from "../field";
import { setupWords } from "../guard";

import { setupStyle } from "../style";
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
export function roomsPage(c: DeskContext, items: CatalogItem[], flash?: string) {
  const rw = roomWordsOf(c.var.desk.locale);
  return deskPage(c, 200, {
    title: rw.title,
    section: "setup",
    positions: setupStyle,
    body: (
      <div class="stack">
        <p class="small">
          <a href="/office/setup">← {setupWords(c).back}</a>
        </p>
        <h1>{rw.title}</h1>
        <SetupNotice flash={flash} label={setupWords(c).refused} />
        <p class="muted">{rw.intro}</p>
        <p>
          <a class="btn" href="/office/setup/rooms/new">
            {rw.add}
          </a>
        </p>
        <CatalogList items={items} none={rw.none} inactive={rw.inactive} inactiveTitle={rw.inactiveTitle} />
      </div>
    ),
  });
}

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
  const field = (name: "name" | "quantity" | "timezone", type = "text") => (
    <TextField name={name} label={rw[name]} value={f[name]} problem={problems[name]} type={type} />
  );
  return deskPage(c, status, {
    title,
    section: "setup",
    positions: setupStyle,
    body: (
      <div class="stack">
        <p class="small">
          <a href="/office/setup/rooms">← {rw.title}</a>
        </p>
        <h1>{title}</h1>
        <SetupNotice flash={state.flash} refused={state.refused} label={setupWords(c).refused} />
        <form method="post" action={room ? `/office/setup/rooms/${room.id}` : "/office/setup/rooms"} class="setupform">
          {field("name")}
          {field("quantity", "number")}
          {field("timezone")}
          <fieldset>
            <legend>{rw.hours}</legend>
            <CheckField name="ownHours" label={rw.ownHours} checked={"ownHours" in f} />
            <p class="muted small">{rw.hoursHint}</p>
            <WeekFields locale={c.var.desk.locale} week={{}} sent={f} problems={problems} interval={rw.interval} />
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
      </div>
    ),
  });
}
