/** Pieces several pages share: the progress list, the summary beside a step, notices, icons. */
import type { Child } from "hono/jsx";
import type { PublicService } from "../booking-page/services";
import type { View } from "./view";

const svg = (path: string) => (
  <svg
    width="18"
    height="18"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    stroke-linecap="round"
    stroke-linejoin="round"
    aria-hidden="true"
    focusable="false"
  >
    <path d={path} />
  </svg>
);

export const icons = {
  clock: svg("M12 7v5l3 2M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0"),
  person: svg("M20 21a8 8 0 0 0-16 0M12 13a5 5 0 1 0 0-10 5 5 0 0 0 0 10"),
  calendar: svg("M8 2v4M16 2v4M3 10h18M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2"),
  globe: svg("M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18"),
  left: svg("m15 18-6-6 6-6"),
  right: svg("m9 18 6-6-6-6"),
  check: svg("M20 6 9 17l-5-5"),
  timer: svg("M10 2h4M12 14l3-3M12 22a8 8 0 1 0 0-16 8 8 0 0 0 0 16"),
};

/**
 * The steps of the flow, always six: the bar does not grow once a service turns out to ask for a
 * person. Where nobody is to be picked, the person is settled with the service (that step is past).
 */
export type Step = "service" | "person" | "date" | "time" | "details" | "done";

const steps: Step[] = ["service", "person", "date", "time", "details", "done"];

export function Progress({ view, current }: { view: View; current: Step }) {
  const at = steps.indexOf(current);
  return (
    <ol class="progress" aria-label={view.m.steps.label}>
      {steps.map((step, i) => (
        <li data-n={String(i + 1)} class={i < at ? "past" : undefined} aria-current={i === at ? "step" : undefined}>
          {view.m.steps[step]}
        </li>
      ))}
    </ol>
  );
}

/** A message above a step: `bad` for what went wrong, `ok` for what went right. */
export function Notice({ tone, children, live }: { tone?: "bad" | "ok"; children?: Child; live?: boolean }) {
  return (
    <div class={tone ? `notice ${tone}` : "notice"} role={live ? "alert" : undefined}>
      {children}
    </div>
  );
}

/** What the visitor chose so far, beside the step. */
export function Summary(props: {
  view: View;
  service: PublicService;
  providerName?: string;
  when?: string;
  /** A link back to an earlier step. */
  back?: { href: string; label: string };
  children?: Child;
}) {
  const { view, service } = props;
  const { m, f } = view;
  return (
    <aside class="aside" aria-label={service.name}>
      <p class="eyebrow">{view.brand.title}</p>
      <h1>{service.name}</h1>
      {service.description && <p class="muted small">{service.description}</p>}
      <ul class="facts">
        <li>
          {icons.clock}
          <span>
            <span class="sr-only">{m.summary.duration}: </span>
            {m.minutes(service.durationMinutes)}
          </span>
        </li>
        {props.providerName && (
          <li>
            {icons.person}
            <span>
              <span class="sr-only">{m.summary.with}: </span>
              {props.providerName}
            </span>
          </li>
        )}
        {props.when && (
          <li>
            {icons.calendar}
            <strong>
              <span class="sr-only">{m.summary.when}: </span>
              {props.when}
            </strong>
          </li>
        )}
        <li>
          {icons.globe}
          <span>
            <span class="sr-only">{m.summary.zone}: </span>
            {f.zone()}
          </span>
        </li>
      </ul>
      {props.children}
      {props.back && (
        <p class="small back">
          <a href={props.back.href}>← {props.back.label}</a>
        </p>
      )}
    </aside>
  );
}
