import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import { needs } from "../../domain/scopes";
import type { AppEnv } from "../../env";
import { etagOf, ifMatchTags } from "../../lib/etag";
import { editProvider } from "../../providers/edit";
import { conditionalPatch } from "../operations";
import { ProviderSchema, UpdateProviderSchema } from "./schemas";

const route = createRoute({
  method: "patch",
  path: "/{id}",
  operationId: "updateProvider",
  tags: ["Providers"],
  summary: "Change a provider",
  description:
    "Given fields replace the stored ones (`dateOverrides` as a whole list). Once this answers 200, no new booking is decided against the old settings; existing bookings are kept.",
  security: needs("catalog:write"),
  ...conditionalPatch(
    UpdateProviderSchema,
    ProviderSchema,
    "The updated provider.",
    "prv_01jd3k5v7q8r9s0t1u2v3w4x5y",
    503,
  ),
});

export const registerUpdateProvider = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    const { businessId } = c.var.caller;
    const { provider, version } = await editProvider(
      c.env,
      c.var.db,
      businessId,
      id,
      c.req.valid("json"),
      ifMatchTags(c),
      actorOf(c.var.caller),
    );
    c.header("ETag", etagOf(version));
    return c.json(provider, 200);
  });
