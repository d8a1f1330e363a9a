import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { createWebhook } from "./create";
import { deleteWebhook } from "./delete";
import { listWebhookDeliveries } from "./deliveries";
import { getWebhook } from "./get";
import { listWebhooks } from "./list";
import { retryWebhookDelivery } from "./retry";

/** `/webhooks`: endpoints for booking events and their delivery log. */
export const webhooksApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
createWebhook(webhooksApp);
listWebhooks(webhooksApp);
getWebhook(webhooksApp);
deleteWebhook(webhooksApp);
listWebhookDeliveries(webhooksApp);
retryWebhookDelivery(webhooksApp);
