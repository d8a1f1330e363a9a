import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCreateWebhook } from "./create";
import { registerDeleteWebhook } from "./delete";
import { registerListWebhookDeliveries } from "./deliveries";
import { registerGetWebhook } from "./get";
import { registerListWebhooks } from "./list";
import { registerRetryWebhookDelivery } from "./retry";

/** `/webhooks`: endpoints for booking events and their delivery log. */
export const webhooksApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerCreateWebhook(webhooksApp);
registerListWebhooks(webhooksApp);
registerGetWebhook(webhooksApp);
registerDeleteWebhook(webhooksApp);
registerListWebhookDeliveries(webhooksApp);
registerRetryWebhookDelivery(webhooksApp);
