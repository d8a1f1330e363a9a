import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { serviceProviders, services } from "../../db/schema";
import type { AppEnv } from "../../env";
import { newId } from "../../lib/ids";
import { bearerSecurity, bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { CreateServiceSchema, ServiceSchema, toService } from "../../schemas/services";
import { assertProvidersExist } from "./providers";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createService",
  tags: ["Services"],
  summary: "Add a service to the catalog",
  description:
    "Rules the schema cannot express: `slotIntervalMinutes` defaults to `durationMinutes`; in `weeklySchedule` an interval ends after it starts (intervals do not cross midnight; `24:00` ends a day) and the intervals of one day do not overlap (else 422 at the interval's path).",
  security: bearerSecurity,
  request: { body: { required: true, content: { "application/json": { schema: CreateServiceSchema } } } },
  responses: {
    201: jsonResponse("The new service; `Location` points at it.", ServiceSchema, { required: ["Location"] }),
    ...problemResponses(...bodyProblems),
  },
});

export const createService = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { providerIds, ...body } = c.req.valid("json");
    const { businessId } = c.var.caller;
    const { db } = c.var;
    await assertProvidersExist(db, businessId, providerIds);
    const now = new Date().toISOString();
    const id = newId("service");
    const insert = db
      .insert(services)
      .values({
        ...body,
        description: body.description ?? null,
        slotIntervalMinutes: body.slotIntervalMinutes ?? body.durationMinutes,
        id,
        businessId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const links = providerIds.map((providerId) => ({ businessId, serviceId: id, providerId }));
    const [rows] =
      links.length > 0 ? await db.batch([insert, db.insert(serviceProviders).values(links)]) : [await insert];
    const service = toService(rows[0] as NonNullable<(typeof rows)[0]>, providerIds);
    c.header("Location", `/api/v1/services/${service.id}`);
    return c.json(service, 201);
  });
