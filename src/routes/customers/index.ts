import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { createCustomer } from "./create";
import { deleteCustomer } from "./delete";
import { getCustomer } from "./get";
import { listCustomers } from "./list";
import { updateCustomer } from "./update";

/** `/customers`: the business's customer profiles. */
export const customersApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
listCustomers(customersApp);
createCustomer(customersApp);
getCustomer(customersApp);
updateCustomer(customersApp);
deleteCustomer(customersApp);
