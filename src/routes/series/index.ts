import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { registerCancelSeries } from "./cancel";
import { registerCreateSeries } from "./create";
import { registerGetSeries } from "./get";

/** `/series`: one service on every occurrence of a rule, booked all or none, or the free ones. */
export const seriesApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
registerCreateSeries(seriesApp);
registerGetSeries(seriesApp);
registerCancelSeries(seriesApp);
