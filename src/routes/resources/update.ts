import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { editResource } from "../../resources/edit";
import { ResourceSchema, UpdateResourceSchema } from "../../schemas/resources";
import { needs } from "../../types/scopes";
import { answerEdited, editOf } from "../edit-by-id";
import { conditionalPatch } from "../operations";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateResource",
  tags: ["Resources"],
  summary: "Change a resource",
  description:
    "Given fields replace the stored ones (`dateOverrides` as a whole list). Once this answers 200, no new booking is decided against the old settings; existing bookings keep their units. With `If-Match`, the change applies only if the resource still has that ETag (else 412).\n\nA change that leaves fewer units — a lower `quantity`, or `active: false` — is checked against the resource's calendar first: while upcoming bookings or live holds would not fit, it is a `409 bookings_conflict` whose `conflicts` list where (`at`, `bookingIds`), and nothing changes.",
  security: needs("catalog:write"),
  ...conditionalPatch(
    UpdateResourceSchema,
    ResourceSchema,
    "The updated resource.",
    "res_01jd3k5v7q8r9s0t1u2v3w4x5y",
    409,
    503,
  ),
});

export const registerUpdateResource = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { resource, version } = await editResource(...editOf(c));
    return answerEdited(c, resource, version);
  });
