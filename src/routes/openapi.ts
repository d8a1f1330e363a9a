import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { deprecatedOperations, markDeprecated } from "../lib/deprecations";
import { registerResponseHeaders, responseHeaders } from "../lib/openapi";
import { examplesAhead } from "../lib/openapi/examples";
import { z } from "../lib/zod";

type Document = ReturnType<OpenAPIHono<AppEnv>["getOpenAPI31Document"]>;

/** The document's tags, in the reference's order, each with what its operations are about. */
const tagDescriptions = {
  Business: "The business account itself: its booking page and e-mails to customers.",
  Bookings: "Appointments.",
  Appointments: "Visits: several services back to back, each segment a booking, booked all or none.",
  Series: "Recurring appointments: one service on every occurrence of a rule.",
  Waitlist: "Customers queued for a full slot, offered a hold when a seat frees.",
  Services: "The catalog and its availability.",
  Customers: "Customer profiles.",
  Providers: "People who perform services, with own hours; one each, or a team.",
  Resources: "Rooms, chairs and machines with identical units that bookings take.",
  Holds: "Seats kept for a few minutes, then booked or released.",
  "Manage links": "A customer's own link to view, move or cancel a booking without an API key.",
  Webhooks: "Signed booking events (Standard Webhooks) and their deliveries.",
  Audit: "Who changed what, and when: field names, never their values.",
  Agents: "The API as a Model Context Protocol server, for AI agents.",
  Meta: "Health, contract, reference and problem types.",
};

/**
 * Serves the OpenAPI 3.1.0 document generated from the routes' zod schemas, its example
 * instants moved ahead of now (`examplesAhead`). It is built once per isolate and origin: the
 * public, unauthenticated route costs no more than a lookup.
 */
export const registerOpenApiDocument = (api: OpenAPIHono<AppEnv>) => {
  registerResponseHeaders(api.openAPIRegistry);
  const built = new Map<string, Document>();
  const documentFor = (origin: string) => {
    let document = built.get(origin);
    if (!document) {
      document = examplesAhead(
        api.getOpenAPI31Document({
          openapi: "3.1.0",
          info: {
            title: "Booking API",
            version: "1.0.0",
            description:
              "Appointment booking for businesses: services, providers, resources, customers and bookings. Every route except `/health`, `/openapi.json`, `/docs`, `/problems/{code}` and the customers' and calendars' own links (`/manage/{token}…`, `/feeds/{token}.ics`) needs `Authorization: Bearer <API_KEY>`. Errors are RFC 9457 problem details.",
          },
          servers: [{ url: `${origin}/api/v1` }],
          tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
        }),
        Date.now(),
      );
      markDeprecated(document, deprecatedOperations);
      if (built.size < 16) built.set(origin, document);
    }
    return document;
  };
  const route = createRoute({
    method: "get",
    path: "/openapi.json",
    operationId: "getOpenApiDocument",
    tags: ["Meta"],
    summary: "This OpenAPI 3.1.0 document",
    description:
      "Generated from the schemas that validate requests. Its example instants are moved ahead of the time it is built, so every example is a request the API accepts.",
    security: [],
    responses: {
      200: {
        description: "The contract of this API.",
        headers: responseHeaders(),
        content: { "application/json": { schema: z.looseObject({ openapi: z.string() }).openapi("OpenApiDocument") } },
      },
    },
  });
  return api.openapi(route, (c) => c.json(documentFor(new URL(c.req.url).origin) as { openapi: string }, 200));
};
