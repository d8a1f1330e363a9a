/** Step 1: the services the page offers. */
import type { PublicService } from "../../booking-page/services";
import { Layout } from "../layout";
import { icons, Progress } from "../parts";
import { type Flow, hrefOf } from "../state";
import type { View } from "../view";

export function ServicesPage({ view, flow, services }: { view: View; flow: Flow; services: PublicService[] }) {
  const { m } = view;
  return (
    <Layout view={view} title={m.services.heading}>
      <div class="wide">
        <Progress view={view} current="service" />
        <h1>{m.services.heading}</h1>
        {services.length === 0 ? (
          <p class="muted">{m.services.none}</p>
        ) : (
          <ul class="choices">
            {services.map((service) => (
              <li>
                <a
                  class="choice"
                  href={hrefOf({
                    slug: flow.slug,
                    tz: flow.tz,
                    lang: flow.lang,
                    embed: flow.embed,
                    service: service.id,
                  })}
                >
                  <span class="body">
                    <span class="name">{service.name}</span>
                    {service.description && <span class="desc">{service.description}</span>}
                    <span class="pill">
                      {icons.clock}
                      {m.minutes(service.durationMinutes)}
                    </span>
                  </span>
                  <span class="chev">{icons.right}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Layout>
  );
}
