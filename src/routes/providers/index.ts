import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { listProviderBookings } from "./bookings";
import { createProvider } from "./create";
import { createProviderFeed } from "./create-feed";
import { deleteProviderFeed } from "./delete-feed";
import { getProvider } from "./get";
import { listProviders } from "./list";
import { updateProvider } from "./update";

/** `/providers`: the people (or rooms) who perform services, and their bookings and calendar feeds. */
export const providersApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listProviders(providersApp);
createProvider(providersApp);
getProvider(providersApp);
updateProvider(providersApp);
listProviderBookings(providersApp);
createProviderFeed(providersApp);
deleteProviderFeed(providersApp);
