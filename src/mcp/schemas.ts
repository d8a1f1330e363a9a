/**
 * Where the tools' schemas come from: the REST operations themselves. Each tool names the
 * operationId it mirrors; its argument checks are that route's own zod schemas (read from the
 * app's OpenAPI registry), and its JSON Schemas are that operation's parameters, body and answer
 * as the served OpenAPI document describes them (generated from the same zod schemas), with
 * `$ref`s inlined so that every tool schema stands alone.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import type { z } from "../lib/zod";

export type JsonSchema = { [keyword: string]: unknown };

/** The header a tool takes as an argument, under the argument's name. */
export const idempotencyArgument = { header: "idempotency-key", name: "idempotencyKey" } as const;

/** What a tool needs to know of a REST operation to call it and check arguments like it. */
export type RestOperation = {
  method: string;
  /** OpenAPI template under /api/v1, e.g. `/bookings/{id}/reschedule`. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  /** The route reads an `Idempotency-Key` header (the tool's `idempotencyKey`). */
  takesIdempotencyKey: boolean;
  hasBody: boolean;
};

type RouteRequest = {
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType | z.ZodType[];
  body?: unknown;
};
type Definition = {
  type: string;
  route?: { method: string; path: string; operationId?: string; request?: RouteRequest };
};

/** The operations registered on `api` so far, by operationId. */
export function restOperations(api: OpenAPIHono<AppEnv>): Map<string, RestOperation> {
  const operations = new Map<string, RestOperation>();
  for (const definition of api.openAPIRegistry.definitions as Definition[]) {
    const route = definition.type === "route" ? definition.route : undefined;
    if (!route?.operationId) continue;
    const request = route.request ?? {};
    const headers = Array.isArray(request.headers) ? undefined : request.headers;
    const headerNames = headers && "shape" in headers ? Object.keys(headers.shape as object) : [];
    operations.set(route.operationId, {
      method: route.method.toUpperCase(),
      path: route.path,
      params: request.params,
      query: request.query,
      headers,
      takesIdempotencyKey: headerNames.includes(idempotencyArgument.header),
      hasBody: request.body !== undefined,
    });
  }
  return operations;
}

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };
type MediaTypes = Record<string, { schema?: JsonSchema }>;
type Operation = {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { content?: MediaTypes };
  responses?: Record<string, { content?: MediaTypes }>;
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const schemaKeywords = new Set([
  "items",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
]);
const schemaListKeywords = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
const schemaMapKeywords = new Set(["properties", "patternProperties", "dependentSchemas", "$defs"]);

/**
 * A document schema as a standalone JSON Schema (2020-12): `$ref`s to components inlined, and the
 * OpenAPI-only `example` turned into the standard `examples`. Other keywords are copied as they are.
 */
export function standalone(schema: unknown, components: Record<string, JsonSchema>, depth = 0): JsonSchema {
  if (depth > 32) throw new Error("A schema of the document nests too deep to inline.");
  if (typeof schema === "boolean") return schema ? {} : { not: {} };
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return {};
  const { $ref, example, ...rest } = schema as JsonSchema;
  if (typeof $ref === "string") {
    const target = components[$ref.replace("#/components/schemas/", "")];
    if (!target) throw new Error(`The document has no schema ${$ref}.`);
    return standalone({ ...target, ...rest, ...(example === undefined ? {} : { example }) }, components, depth + 1);
  }
  const inner = (sub: unknown) => standalone(sub, components, depth + 1);
  const out: JsonSchema = {};
  for (const [keyword, value] of Object.entries(rest)) {
    if (schemaKeywords.has(keyword) && typeof value === "object" && value !== null) out[keyword] = inner(value);
    else if (schemaListKeywords.has(keyword) && Array.isArray(value)) out[keyword] = value.map(inner);
    else if (schemaMapKeywords.has(keyword) && typeof value === "object" && value !== null) {
      out[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, inner(sub)]));
    } else out[keyword] = value;
  }
  if (example !== undefined && out.examples === undefined) out.examples = [example];
  return out;
}

function operationOf(doc: OpenApiDocument, operationId: string): Operation {
  for (const item of Object.values(doc.paths)) {
    for (const operation of Object.values(item)) if (operation.operationId === operationId) return operation;
  }
  throw new Error(`The OpenAPI document has no operation ${operationId}.`);
}

/**
 * A tool's arguments as one object: the operation's path `id` (under `idArgument`), its query
 * parameters, `idempotencyKey` when it takes an `Idempotency-Key`, and its JSON body's fields.
 */
export function inputSchemaOf(
  doc: OpenApiDocument,
  operationId: string,
  idArgument?: { name: string; description: string },
): JsonSchema {
  const components = doc.components?.schemas ?? {};
  const operation = operationOf(doc, operationId);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    let name: string | undefined = parameter.name;
    let description = parameter.description;
    if (parameter.in === "path") {
      name = idArgument?.name;
      description = idArgument?.description;
    } else if (parameter.in === "header") {
      name = parameter.name.toLowerCase() === idempotencyArgument.header ? idempotencyArgument.name : undefined;
    }
    if (name === undefined) continue;
    const schema = standalone(parameter.schema, components);
    properties[name] = description === undefined ? schema : { ...schema, description };
    if (parameter.required) required.push(name);
  }
  const body = standalone(operation.requestBody?.content?.["application/json"]?.schema, components);
  Object.assign(properties, body.properties);
  if (Array.isArray(body.required)) required.push(...(body.required as string[]));
  return { type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** The JSON answer of an operation's success (its lowest 2xx status). */
export function outputSchemaOf(doc: OpenApiDocument, operationId: string): JsonSchema {
  const components = doc.components?.schemas ?? {};
  const responses = operationOf(doc, operationId).responses ?? {};
  const success = Object.keys(responses)
    .filter((status) => /^2\d\d$/.test(status))
    .sort()[0];
  const schema = success ? responses[success]?.content?.["application/json"]?.schema : undefined;
  if (!schema) throw new Error(`Operation ${operationId} documents no JSON success answer.`);
  return standalone(schema, components);
}
