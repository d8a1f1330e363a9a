import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { actorOf } from "../../access/actor";
import type { AppEnv } from "../../env";
import { etagOf } from "../../lib/etag";
import { bodyProblems, jsonResponse, problemResponses } from "../../lib/openapi";
import { addResource } from "../../resources/records";
import { CreateResourceSchema, ResourceSchema } from "../../schemas/resources";
import { needs } from "../../types/scopes";

const route = createRoute({
  method: "post",
  path: "/",
  operationId: "createResource",
  tags: ["Resources"],
  summary: "Add a resource",
  description:
    "A room, chair or machine with `quantity` identical units; link it to services with their `resourceIds`. Its calendar is set up before this answers (503 to retry if it cannot be reached; the resource is stored).",
  security: needs("catalog:write"),
  request: { body: { required: true, content: { "application/json": { schema: CreateResourceSchema } } } },
  responses: {
    201: jsonResponse("The new resource; `Location` points at it.", ResourceSchema, { required: ["Location", "ETag"] }),
    ...problemResponses(...bodyProblems, 503),
  },
});

export const registerCreateResource = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, async (c) => {
    const { resource, version } = await addResource(
      c.env,
      c.var.db,
      c.var.caller.businessId,
      c.req.valid("json"),
      actorOf(c.var.caller),
    );
    c.header("Location", `/api/v1/resources/${resource.id}`);
    c.header("ETag", etagOf(version));
    return c.json(resource, 201);
  });
