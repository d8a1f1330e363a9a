/** `/office/setup` for an owner: the people (each a link to their hours) and the setup's other pages. */
import type { DeskContext } from "../frame/desk";
import { deskPage } from "../frame/layout";
import { setupWords } from "./guard";
import type { ProviderChoice } from "./providers";
import { setupStyle } from "./style";

/** The setup's own pages besides the people. */
const pages = [
  ["business", "/office/setup/business"],
  ["services", "/office/setup/services"],
  ["rooms", "/office/setup/rooms"],
  ["members", "/office/setup/members"],
  ["keys", "/office/setup/api-keys"],
  ["webhooks", "/office/setup/webhooks"],
] as const;

/** The setup's first page. */
export function setupIndexPage(c: DeskContext, people: ProviderChoice[]) {
  const w = setupWords(c);
  return deskPage(c, 200, {
    title: w.title,
    section: "setup",
    positions: setupStyle,
    body: (
      <div class="stack">
        <h1>{w.title}</h1>
        <section aria-labelledby="people">
          <h2 id="people">{w.people}</h2>
          {people.length === 0 ? (
            <p class="muted">{w.noProviders}</p>
          ) : (
            <ul class="links">
              {people.map((p) => (
                <li>
                  <a href={`/office/setup/people/${p.id}`}>{p.name}</a>
                  {!p.active && <span class="muted"> · {w.inactive}</span>}
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="pages">
          <h2 id="pages">{w.business}</h2>
          <ul class="links">
            {pages.map(([key, href]) => (
              <li>
                <a href={href}>{w.pages[key]}</a>
              </li>
            ))}
          </ul>
        </section>
      </div>
    ),
  });
}
