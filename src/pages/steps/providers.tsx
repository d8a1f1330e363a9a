/** Step 2, where the service has several people: anyone, or one of them. */
import type { PublicService } from "../../booking-page/services";
import { Layout } from "../layout";
import { icons, Notice, Progress, Summary } from "../parts";
import { type Flow, hrefOf } from "../state";
import { initialsOf, type View } from "../view";

export function ProvidersPage(props: { view: View; flow: Flow; service: PublicService; problem?: string }) {
  const { view, flow, service } = props;
  const { m } = view;
  const choice = (person: string, name: string, hint: string | undefined, badge: string) => (
    <li>
      <a class="choice" href={hrefOf(flow, { person, day: undefined, month: undefined })}>
        <span class="avatar" aria-hidden="true">
          {badge}
        </span>
        <span class="body">
          <span class="name">{name}</span>
          {hint && <span class="desc">{hint}</span>}
        </span>
        <span class="chev">{icons.right}</span>
      </a>
    </li>
  );
  return (
    <Layout view={view} title={m.people.heading}>
      <div class="cols">
        <Summary view={view} service={service} />
        <div class="panel">
          <Progress view={view} current="person" />
          <h2>{m.people.heading}</h2>
          {props.problem && (
            <Notice tone="bad" live>
              {props.problem}
            </Notice>
          )}
          <ul class="choices">
            {choice("any", m.people.anyone, m.people.anyoneHint, "★")}
            {service.providers.map((p) => choice(p.id, p.name, undefined, initialsOf(p.name)))}
          </ul>
          <p class="small">
            <a href={hrefOf({ slug: flow.slug, tz: flow.tz, lang: flow.lang, embed: flow.embed })}>
              ← {m.summary.otherService}
            </a>
          </p>
        </div>
      </div>
    </Layout>
  );
}
