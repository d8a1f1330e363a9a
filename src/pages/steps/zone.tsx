/**
 * The time-zone switch: its own small page (every zone the runtime knows is a long list, kept off
 * the steps), a GET form that goes back to the same step (or the manage page) in the zone chosen;
 * and the line on the steps that names the zone and links to it.
 */
import { raw } from "hono/html";
import { Layout } from "../layout";
import { icons, Notice } from "../parts";
import { type Flow, hrefOf, paramsOf } from "../state";
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

/**
 * A list of zones: a GET form to `action` that keeps `keep` (name, value) and sends the zone
 * chosen; `back` leaves without choosing. The booking flow's zone page, and the manage link's.
 */
export function ZoneChoice(props: {
  view: View;
  action: string;
  keep: [string, string][];
  back: string;
  /** The address is a secret (the manage link's). */
  capability?: boolean;
  notice?: string;
}) {
  const { view } = props;
  const { m } = view;
  return (
    <Layout view={view} title={m.times.zoneHeading} capability={props.capability}>
      <div class="wide">
        <h1>{m.times.zoneHeading}</h1>
        {props.notice && (
          <Notice tone="bad" live>
            {props.notice}
          </Notice>
        )}
        <form class="zone" method="get" action={props.action}>
          {props.keep.map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          <div class="field">
            <label for="tz">{m.times.zoneLabel}</label>
            <select id="tz" name="tz" autocomplete="off">
              {raw(optionsFor(view.tz))}
            </select>
          </div>
          <button class="btn" type="submit">
            {m.times.zoneButton}
          </button>
        </form>
        <p class="small back">
          <a href={props.back}>← {m.times.back}</a>
        </p>
      </div>
    </Layout>
  );
}

/** The zone page: a form that keeps the flow and changes its zone. */
export function ZonePage({ view, flow }: { view: View; flow: Flow }) {
  return (
    <ZoneChoice
      view={view}
      action={`/book/${flow.slug}`}
      keep={paramsOf(flow, { tz: undefined })}
      back={hrefOf(flow)}
    />
  );
}

/** The zone the step's times are in, and the way to another. */
export function ZoneLine({ view, flow, at }: { view: View; flow: Flow; at?: number }) {
  return (
    <p class="zoneline small">
      {icons.globe}
      <span>{view.m.times.zone(view.f.zone(at))}</span>
      <a href={hrefOf({ ...flow, tz: view.tz }, {}, "/zone")}>{view.m.times.changeZone}</a>
    </p>
  );
}
