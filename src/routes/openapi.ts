import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";

/** Serves the OpenAPI 3.1.0 document generated from the routes' zod schemas. */
export const openApiDocument = (api: OpenAPIHono<AppEnv>) =>
  api.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Booking API",
      version: "1.0.0",
      description:
        "Appointment booking for businesses: services, customers and bookings. Every route except `/health`, `/openapi.json` and `/problems/{code}` needs `Authorization: Bearer <API_KEY>`. Errors are RFC 9457 problem details.",
    },
    servers: [{ url: `${new URL(c.req.url).origin}/api/v1` }],
    tags: [
      { name: "Bookings", description: "Appointments." },
      { name: "Services", description: "The catalog and its availability." },
      { name: "Customers", description: "Customer profiles." },
      { name: "Meta", description: "Health, contract and problem types." },
    ],
  }));
