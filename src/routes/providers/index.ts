import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerListProviderBookings } from "./bookings";
import { registerCreateProvider } from "./create";
import { registerCreateProviderFeed } from "./create-feed";
import { registerDeleteProviderFeed } from "./delete-feed";
import { registerGetProvider } from "./get";
import { registerListProviders } from "./list";
import { registerUpdateProvider } from "./update";

/** `/providers`: the people (or rooms) who perform services, and their bookings and calendar feeds. */
export const providersApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListProviders(providersApp);
registerCreateProvider(providersApp);
registerGetProvider(providersApp);
registerUpdateProvider(providersApp);
registerListProviderBookings(providersApp);
registerCreateProviderFeed(providersApp);
registerDeleteProviderFeed(providersApp);
