import { createMiddleware } from "hono/factory";

/** Some clients send `Content-Type: application/json` on a bodiless POST: read that as `{}`. */
export const emptyBodyAsObject = createMiddleware(async (c, next) => {
  if (c.req.header("Content-Type") && (await c.req.raw.clone().text()).trim() === "") {
    c.req.raw = new Request(c.req.raw, { body: "{}" });
  }
  await next();
});
