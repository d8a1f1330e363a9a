import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { editProvider } from "../../providers/edit";
import { needs } from "../../types/scopes";
import { answerEdited, editOf } from "../edit-by-id";
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
    const { provider, version } = await editProvider(...editOf(c));
    return answerEdited(c, provider, version);
  });
