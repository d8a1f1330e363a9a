/** Step 3: a month of dates; those with free times lead on to the times. */
import type { PublicService } from "../../booking-page/services";
import type { DayKey } from "../i18n/format";
import { Layout } from "../layout";
import { Notice, Progress, Summary } from "../parts";
import { type Flow, hrefOf } from "../state";
import type { View } from "../view";
import { addMonths, MonthCalendar } from "./month";
import { ZoneLine } from "./zone";

export type DaysProps = {
  view: View;
  flow: Flow;
  service: PublicService;
  providerName?: string;
  withProvider: boolean;
  month: string;
  open: Set<DayKey>;
  today: DayKey;
  /** The last month with bookable times (the service's horizon). */
  lastMonth: string;
};

export function DaysPage(props: DaysProps) {
  const { view, flow, month } = props;
  const { m } = view;
  const thisMonth = props.today.slice(0, 7);
  const monthHref = (to: string) => hrefOf(flow, { month: to, day: undefined });
  return (
    <Layout view={view} title={m.days.heading}>
      <div class="cols">
        <Summary
          view={view}
          service={props.service}
          providerName={props.providerName}
          back={
            props.withProvider
              ? { href: hrefOf(flow, { person: undefined, month: undefined }), label: m.people.heading }
              : {
                  href: hrefOf({ ...flow, service: undefined, person: undefined, month: undefined }),
                  label: m.summary.otherService,
                }
          }
        />
        <div class="panel">
          <Progress view={view} current="date" />
          <h2>{m.days.heading}</h2>
          <ZoneLine view={view} flow={flow} />
          <MonthCalendar
            view={view}
            month={month}
            open={props.open}
            today={props.today}
            dayHref={(day) => hrefOf(flow, { day, month: undefined })}
            previous={month > thisMonth ? monthHref(addMonths(month, -1)) : undefined}
            next={month < props.lastMonth ? monthHref(addMonths(month, 1)) : undefined}
          />
          {props.open.size === 0 && (
            <Notice>
              {m.days.none} {month < props.lastMonth && <a href={monthHref(addMonths(month, 1))}>{m.days.tryNext}</a>}
            </Notice>
          )}
        </div>
      </div>
    </Layout>
  );
}
