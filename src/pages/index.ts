/**
 * `/book/…`: the booking pages, server-rendered HTML that works without JavaScript — the flow at
 * `/book/{slug}`, its form posts, the confirmation and `.ics`, the embed script, and the pages'
 * stylesheet and script. Every refusal is a page that says what to do (render.tsx).
 */
import { Hono } from "hono";
import { ApiError } from "../lib/api-error";
import { assetNamed, embedScript } from "./assets";
import { bookedIcs, bookedPage } from "./confirmation";
import { bookingFlow, zonePage } from "./flow";
import { detailsPage, placeHoldFromForm } from "./hold";
import { errorPage, type PageEnv } from "./render";
import { bookFromForm } from "./submit";

export const pagesApp = new Hono<PageEnv>();

const notFound = () => new ApiError("not_found", "No page here.");

pagesApp.get("/_assets/:file", (c) => {
  const asset = assetNamed(c.req.param("file"));
  if (!asset) return errorPage(c, notFound());
  return c.body(asset.body, 200, {
    "Content-Type": asset.type,
    // The name carries a hash of the text: a new version is a new address.
    "Cache-Control": "public, max-age=31536000, immutable",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
});

pagesApp.get("/:slug/embed.js", (c) =>
  c.body(embedScript, 200, {
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": "public, max-age=3600",
    "X-Content-Type-Options": "nosniff",
    // Loaded by other sites' pages: that is its purpose.
    "Cross-Origin-Resource-Policy": "cross-origin",
  }),
);

pagesApp.get("/:slug", bookingFlow);
pagesApp.get("/:slug/zone", zonePage);
pagesApp.post("/:slug/hold", placeHoldFromForm);
pagesApp.get("/:slug/details", detailsPage);
pagesApp.post("/:slug/book", bookFromForm);
pagesApp.get("/:slug/booked/:token", bookedPage);
pagesApp.get("/:slug/booked/:token/booking.ics", bookedIcs);

pagesApp.all("*", (c) => errorPage(c, notFound()));
pagesApp.onError((error, c) => errorPage(c, error));
