import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError, type ProblemCode, problemTypes } from "../lib/api-error";
import { publicProblemResponses, responseHeaders } from "../lib/openapi";
import { z } from "../lib/zod";

const route = createRoute({
  method: "get",
  path: "/problems/{code}",
  operationId: "getProblemType",
  tags: ["Meta"],
  security: [],
  summary: "Describe a problem type",
  description: "The `type` URI of every problem response resolves here. No authentication.",
  request: {
    params: z.object({
      code: z.string().openapi({ param: { name: "code", in: "path" }, example: "slot_unavailable" }),
    }),
  },
  responses: {
    200: {
      description: "The problem type.",
      headers: responseHeaders(),
      content: {
        "application/json": {
          schema: z.object({ code: z.string(), status: z.number().int(), title: z.string() }).openapi("ProblemType"),
        },
      },
    },
    ...publicProblemResponses(404),
  },
});

export const registerProblems = (app: OpenAPIHono<AppEnv>) =>
  app.openapi(route, (c) => {
    const { code } = c.req.valid("param");
    if (!Object.hasOwn(problemTypes, code)) throw new ApiError("not_found", `No problem type ${code}.`);
    const { status, title } = problemTypes[code as ProblemCode];
    return c.json({ code, status, title }, 200);
  });
