import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { webhookDeliveryRoutes } from "./deliveries";
import { webhookEndpointRoutes } from "./endpoints";

/** `/webhooks`: endpoints for booking events and their delivery log. */
export const webhooksApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
webhookEndpointRoutes(webhooksApp);
webhookDeliveryRoutes(webhooksApp);
