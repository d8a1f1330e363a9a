import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { ServiceSchema, UpdateServiceSchema } from "../../schemas/services";
import { editService } from "../../services/edit";
import { needs } from "../../types/scopes";
import { answerEdited, editOf } from "../edit-by-id";
import { conditionalPatch } from "../operations";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateService",
  tags: ["Services"],
  summary: "Change a service",
  description:
    "Changes apply to the next booking and to the availability calendar at once; existing bookings are kept as booked (their times, provider and seat). Send at least one field (else 422); the schedule rules of `POST /services` apply. With `If-Match`, the change applies only if the service still has that ETag (else 412).\n\nA change that leaves fewer seats — a lower `capacity`, or `providerIds: []` on a service whose seats were counted per provider — is refused with `409 bookings_conflict` while upcoming bookings or live holds would be over the new seats; its `conflicts` list where (`at`, `bookingIds`, `providerId`). Adding providers to a service with bookings is allowed: a booking made before the service had providers keeps its seat and takes one in every provider's session at its time, until it is moved to a provider.",
  security: needs("catalog:write"),
  ...conditionalPatch(
    UpdateServiceSchema,
    ServiceSchema,
    "The updated service.",
    "svc_01jd3k5v7q8r9s0t1u2v3w4x5y",
    409,
  ),
});

export const registerUpdateService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { service, version } = await editService(...editOf(c));
    return answerEdited(c, service, version);
  });
