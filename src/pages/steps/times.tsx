/** Step 4: the free times of one day; choosing one places a hold (POST …/hold). */
import type { PublicSlot } from "../../booking-page/availability";
import type { PublicService } from "../../booking-page/services";
import { addDays, type DayKey, startOfDay } from "../i18n/format";
import { Layout } from "../layout";
import { Notice, Progress, Summary } from "../parts";
import { type Flow, hrefOf } from "../state";
import type { View } from "../view";
import { ZoneLine } from "./zone";

export type TimesProps = {
  view: View;
  flow: Flow & { day: DayKey };
  service: PublicService;
  providerName?: string;
  withProvider: boolean;
  slots: PublicSlot[];
  today: DayKey;
  /** Why the visitor is back here (a time taken meanwhile, a hold run out). */
  notice?: string;
};

export function TimesPage(props: TimesProps) {
  const { view, flow, service } = props;
  const { m, f } = view;
  const date = f.date(startOfDay(flow.day, view.tz));
  const zone = f.zone(startOfDay(flow.day, view.tz));
  const free = props.slots.filter((slot) => slot.bookable);
  const path = `/book/${flow.slug}`;
  return (
    <Layout view={view} title={`${m.times.heading}: ${date}`} times>
      <div class="cols">
        <Summary view={view} service={service} providerName={props.providerName} when={date} />
        <div class="panel">
          <Progress view={view} current="time" />
          {props.notice && (
            <Notice tone="bad" live>
              {props.notice}
            </Notice>
          )}
          <h2>{m.times.heading}</h2>
          <p class="date">
            <strong>{date}</strong>
          </p>
          <ZoneLine view={view} flow={flow} at={startOfDay(flow.day, view.tz)} />
          {free.length === 0 ? (
            <p class="muted">{m.times.none}</p>
          ) : (
            <form method="post" action={`${path}/hold`}>
              <input type="hidden" name="service" value={service.id} />
              {flow.person && <input type="hidden" name="person" value={flow.person} />}
              <input type="hidden" name="tz" value={view.tz} />
              {flow.lang && <input type="hidden" name="lang" value={flow.lang} />}
              {flow.embed && <input type="hidden" name="embed" value="1" />}
              <ul class="slots">
                {free.map((slot) => (
                  <li>
                    <button class="slot" type="submit" name="start" value={slot.startTime}>
                      {f.time(slot.startTime)}
                      <span class="sr-only">{m.times.at(date, zone)}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </form>
          )}
          {service.timezone !== view.tz && (
            <p class="muted small">{m.times.serviceZone(f.zoneOf(service.timezone, startOfDay(flow.day, view.tz)))}</p>
          )}
          <nav class="daynav" aria-label={m.steps.date}>
            {flow.day > props.today ? (
              <a href={hrefOf(flow, { day: addDays(flow.day, -1) })}>← {m.times.previous}</a>
            ) : (
              <span />
            )}
            <a class="other" href={hrefOf(flow, { day: undefined, month: flow.day.slice(0, 7) })}>
              {m.times.otherDate}
            </a>
            <a href={hrefOf(flow, { day: addDays(flow.day, 1) })}>{m.times.next} →</a>
          </nav>
        </div>
      </div>
    </Layout>
  );
}
