import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { validationHook } from "../../lib/validation";
import { cancelSeries } from "./cancel";
import { createSeries } from "./create";
import { getSeries } from "./get";

/** `/series`: one service on every occurrence of a rule, booked all or none, or the free ones. */
export const seriesApp = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
createSeries(seriesApp);
getSeries(seriesApp);
cancelSeries(seriesApp);
