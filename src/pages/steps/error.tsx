/** A page that says what went wrong and what to do: every refused request of the pages ends here. */
import { Layout } from "../layout";
import type { View } from "../view";

export function ErrorPage(props: { view: View; title: string; text: string; items?: string[]; startHref?: string }) {
  const { view } = props;
  return (
    <Layout view={view} title={props.title} capability>
      <div class="wide">
        <h1>{props.title}</h1>
        <p>{props.text}</p>
        {props.items && props.items.length > 0 && (
          <ul>
            {props.items.map((item) => (
              <li>{item}</li>
            ))}
          </ul>
        )}
        {props.startHref && (
          <p>
            <a class="btn" href={props.startHref}>
              {view.m.error.start}
            </a>
          </p>
        )}
      </div>
    </Layout>
  );
}
