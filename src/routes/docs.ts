import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { responseHeaders } from "../lib/openapi";
import { z } from "../lib/zod";

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Booking API reference</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs-assets/swagger-ui.css">
</head>
<body>
  <noscript>The reference needs JavaScript; the raw contract is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript>
  <div id="reference"></div>
  <script src="/docs-assets/swagger-ui-bundle.js"></script>
  <script src="/docs-assets/docs.js"></script>
</body>
</html>`;

/** Only this deployment's own scripts and styles; the reference fetches nothing from elsewhere. */
const csp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join("; ");

const route = createRoute({
  method: "get",
  path: "/docs",
  operationId: "getDocs",
  tags: ["Meta"],
  summary: "Interactive API reference",
  description: "A browsable reference of this document, served with its assets by the Worker. No authentication.",
  security: [],
  responses: {
    200: {
      description: "The reference page.",
      headers: responseHeaders(),
      content: { "text/html": { schema: z.string() } },
    },
  },
});

export const registerDocs = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, (c) => {
    c.header("Content-Security-Policy", csp);
    c.header("Cache-Control", "public, max-age=300");
    return c.html(page, 200);
  });
