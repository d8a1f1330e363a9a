import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCreateCustomer } from "./create";
import { registerDeleteCustomer } from "./delete";
import { registerGetCustomer } from "./get";
import { registerListCustomers } from "./list";
import { registerUpdateCustomer } from "./update";

/** `/customers`: the business's customer profiles. */
export const customersApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerListCustomers(customersApp);
registerCreateCustomer(customersApp);
registerGetCustomer(customersApp);
registerUpdateCustomer(customersApp);
registerDeleteCustomer(customersApp);
