/** The document every page is: head, the business's brand and language switch, then the page. */
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { assetPaths } from "./assets";
import { initialsOf, type View } from "./view";

type LayoutProps = {
  view: View;
  title: string;
  /** The page lists times: without a zone in its address, the script reloads it in the visitor's. */
  times?: boolean;
  /** The address is a secret: kept out of search engines. */
  capability?: boolean;
  children?: Child;
};

export function Layout({ view, title, times, capability, children }: LayoutProps) {
  const { m, brand, nonce } = view;
  const { colours } = brand;
  const theme = `:root{--accent:${colours.accent};--accent-ink:${colours.ink};--accent-text:${colours.text}}`;
  return (
    <>
      {raw("<!doctype html>")}
      <html
        lang={view.locale}
        data-tz={view.tz}
        data-tz-auto={view.tzAuto ? "1" : undefined}
        data-times={times ? "1" : undefined}
      >
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          {capability && <meta name="robots" content="noindex, nofollow" />}
          <title>{`${title} · ${brand.title}`}</title>
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href={assetPaths.css} />
          <style nonce={nonce}>{raw(theme)}</style>
          <script src={assetPaths.js} defer />
        </head>
        <body class={view.embed ? "embed" : undefined}>
          <a class="skip" href="#main">
            {m.skip}
          </a>
          <div class="page">
            <header class="top">
              <p class="brand">
                <span class="logo" aria-hidden="true">
                  {initialsOf(brand.title)}
                </span>
                {brand.title}
              </p>
              <ul class="langs" aria-label={m.language}>
                {view.locales.map((locale) => {
                  const name = locale === "de" ? "Deutsch" : "English";
                  return (
                    <li>
                      {locale === view.locale ? (
                        <span aria-current="true">{name}</span>
                      ) : (
                        <a href={view.langHref(locale)} lang={locale} hreflang={locale}>
                          {name}
                        </a>
                      )}
                    </li>
                  );
                })}
              </ul>
            </header>
            <main id="main" class="card">
              {children}
            </main>
          </div>
        </body>
      </html>
    </>
  );
}
