/** The time-zone switch: a GET form that shows the same step in another zone. */
import { raw } from "hono/html";
import { type Flow, paramsOf } from "../state";
import type { View } from "../view";

let zoneOptions: string | undefined;

/** Every zone the runtime knows, as `<option>`s, built once per isolate (names are [A-Za-z0-9/_+-]). */
function optionsHtml(): string {
  if (!zoneOptions) {
    const zones = new Set(Intl.supportedValuesOf("timeZone"));
    zones.add("UTC");
    zoneOptions = [...zones]
      .sort()
      .map((zone) => `<option value="${zone}">${zone.replaceAll("_", " ")}</option>`)
      .join("");
  }
  return zoneOptions;
}

/** The options with `zone` selected (added first if the runtime's list lacks it). */
function optionsFor(zone: string): string {
  const all = optionsHtml();
  const mark = `<option value="${zone}">`;
  if (all.includes(mark)) return all.replace(mark, `<option value="${zone}" selected>`);
  return `<option value="${zone}" selected>${zone.replaceAll("_", " ")}</option>${all}`;
}

/** A form that keeps the flow and changes its zone. */
export function ZoneForm({ view, flow, action }: { view: View; flow: Flow; action: string }) {
  const { m } = view;
  return (
    <form class="zone" method="get" action={action}>
      {paramsOf(flow, { tz: undefined }).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <div class="field">
        <label for="tz">{m.times.zoneLabel}</label>
        <select id="tz" name="tz" autocomplete="off">
          {raw(optionsFor(view.tz))}
        </select>
      </div>
      <button class="btn ghost" type="submit">
        {m.times.zoneButton}
      </button>
    </form>
  );
}
