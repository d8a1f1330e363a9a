/** The office's page frame: one plain document with the booking pages' stylesheet and headers. */
import type { Context } from "hono";
import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { assetPaths } from "../pages/assets";
import { contentSecurityPolicy, newNonce, setPageHeaders } from "../pages/headers";

type Status = 200 | 400 | 403 | 404 | 415 | 422 | 429;

/**
 * Answers an office page: never framed, never cached, no referrer (a sign-in link's address is its
 * secret). A page with a `script` (one of the assets' addresses) may also call this origin's JSON.
 */
export function officePage(c: Context, status: Status, title: string, body: Child, script?: string) {
  const nonce = newNonce();
  setPageHeaders(c, nonce, { framable: false, capability: true });
  if (script) c.header("Content-Security-Policy", `${contentSecurityPolicy(nonce, false)}; connect-src 'self'`);
  return c.html(
    <>
      {raw("<!doctype html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${title} · Office`}</title>
          <link rel="icon" href="data:," />
          <link rel="stylesheet" href={assetPaths.css} />
          {script && <script src={script} defer />}
        </head>
        <body>
          <main id="main" class="page">
            <h1>{title}</h1>
            {body}
          </main>
        </body>
      </html>
    </>,
    status,
  );
}
