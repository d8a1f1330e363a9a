/**
 * Runtime contract checks: every response must be one the OpenAPI document describes for its
 * operation — a documented status, the documented media type, a body valid against the
 * documented schema (Ajv, JSON Schema 2020-12, `#/components/...` refs resolved in the document),
 * and the documented response headers: each required one present, each sent one valid against
 * its schema, and none of the API's own headers (`API_HEADERS`) sent without being declared.
 *
 * It imports nothing Node-only, so the Workers tests use it too.
 */
import type { ErrorObject, ValidateFunction } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { Middleware } from "openapi-fetch";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type MediaTypeObject = { schema?: Record<string, Json> };
export type HeaderObject = { required?: boolean; schema?: Record<string, Json> };
export type ResponseObject = {
  description?: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, MediaTypeObject>;
};
export type OperationObject = { operationId?: string; responses?: Record<string, ResponseObject> } & Record<
  string,
  unknown
>;
export type OpenApiDocument = {
  openapi: string;
  paths: Record<string, Record<string, OperationObject | unknown>>;
  components?: Record<string, unknown>;
} & Record<string, unknown>;

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** What was received, as plain data (so fake responses can be checked too). */
export type ObservedResponse = {
  method: string;
  /** A path template of the document (`/bookings/{id}`) or a concrete path (`/bookings/bkg_1`). */
  path: string;
  status: number;
  headers: Headers | Record<string, string>;
  /** The raw body text ("" for none). */
  body: string;
};

export class ContractViolation extends Error {
  override name = "ContractViolation";
}

const DOCUMENT_ID = "https://contract.invalid/openapi.json";

/**
 * Headers the API itself sends, which a response must declare wherever they are sent. Generic
 * ones (content type and length, date, caching, CORS, security headers) are not checked unless
 * the document declares them somewhere, which adds them to this set.
 */
export const API_HEADERS = [
  "X-Request-Id",
  "Location",
  "ETag",
  "Link",
  "Retry-After",
  "RateLimit-Policy",
  "RateLimit",
  "Idempotent-Replayed",
  "WWW-Authenticate",
  "Allow",
];

/** RFC 6901 escaping of one JSON pointer segment. */
const pointerSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

function mediaTypeOf(contentType: string | null): string | null {
  if (!contentType) return null;
  return contentType.split(";")[0]?.trim().toLowerCase() || null;
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 10)
    .map((e) => `  ${e.instancePath || "(body)"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`)
    .join("\n");
}

export type ContractChecker = ReturnType<typeof createContractChecker>;

export function createContractChecker(document: OpenApiDocument) {
  // strict: false — OpenAPI adds keywords such as `example` that are not JSON Schema.
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  // The whole document is one schema resource, so `#/components/schemas/X` refs resolve inside it.
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const validators = new Map<string, ValidateFunction>();
  const componentHeaders = (document.components?.headers ?? {}) as Record<string, HeaderObject>;
  const checkedHeaders = new Set([...API_HEADERS, ...Object.keys(componentHeaders)].map((h) => h.toLowerCase()));

  /** A template segment as a test of a path segment: `{id}` any text, `{id}.ics` text ending in `.ics`. */
  const segmentTest = (segment: string) => {
    if (!segment.includes("{")) return (part: string) => part === segment;
    const pattern = segment
      .split(/\{[^}]+\}/)
      .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
      .join(".*");
    const matcher = new RegExp(`^${pattern}$`);
    return (part: string) => matcher.test(part);
  };
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    segments: template.split("/").map(segmentTest),
    // Literal characters rank a template: `/bookings/{id}.ics` before `/bookings/{id}`.
    literalCount: template.replace(/\{[^}]+\}/g, "").length,
  }));

  /** The document's path template for a template or a concrete path (literal segments win). */
  function templateOf(pathOrTemplate: string): string | undefined {
    const pathname = pathOrTemplate.split("?")[0] ?? "";
    if (Object.hasOwn(document.paths, pathname)) return pathname;
    const parts = pathname.split("/");
    const matches = templates.filter(
      (t) =>
        t.segments.length === parts.length &&
        t.segments.every((matches, i) => matches(decodeURIComponent(parts[i] ?? ""))),
    );
    matches.sort((a, b) => b.literalCount - a.literalCount);
    return matches[0]?.template;
  }

  function operationOf(method: string, pathOrTemplate: string) {
    const template = templateOf(pathOrTemplate);
    const lower = method.toLowerCase();
    const operation = template ? (document.paths[template]?.[lower] as OperationObject | undefined) : undefined;
    return { template, operation };
  }

  function validatorFor(pointer: string): ValidateFunction {
    let validate = validators.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      validators.set(pointer, validate);
    }
    return validate;
  }

  /** A documented header with its `$ref` (to `#/components/headers/…`) resolved, and its schema's pointer. */
  function resolveHeader(header: HeaderObject | { $ref: string }, pointer: string): [HeaderObject, string] {
    if (!("$ref" in header)) return [header, pointer];
    const name = /^#\/components\/headers\/(.+)$/.exec(header.$ref)?.[1];
    const target = name === undefined ? undefined : componentHeaders[name.replaceAll("~1", "/").replaceAll("~0", "~")];
    if (!target || name === undefined) throw new ContractViolation(`unresolvable header reference ${header.$ref}`);
    return [target, `/components/headers/${name}`];
  }

  /** Header departures: required ones missing, values off their schema, API headers not declared. */
  function headerViolations(
    label: string,
    documented: ResponseObject,
    responsePointer: string,
    headers: Headers,
  ): string[] {
    const found: string[] = [];
    const declared = new Set<string>();
    for (const [name, entry] of Object.entries(documented.headers ?? {})) {
      declared.add(name.toLowerCase());
      const [header, pointer] = resolveHeader(entry, `${responsePointer}/headers/${pointerSegment(name)}`);
      const value = headers.get(name);
      if (value === null) {
        if (header.required) found.push(`${label}: required header ${name} is missing`);
        continue;
      }
      if (!header.schema) continue;
      // Header values are text; a numeric schema (Retry-After) describes the number they spell.
      const numeric = ["integer", "number"].includes(String(header.schema.type)) && /^-?\d+(\.\d+)?$/.test(value);
      const validate = validatorFor(`${pointer}/schema`);
      if (!validate(numeric ? Number(value) : value)) {
        found.push(
          `${label}: header ${name}: ${JSON.stringify(value)} does not match its schema:\n${formatErrors(validate.errors)}`,
        );
      }
    }
    for (const name of headers.keys()) {
      if (checkedHeaders.has(name) && !declared.has(name)) {
        found.push(`${label}: header ${name} is sent but not declared for this response`);
      }
    }
    return found;
  }

  /** Every way `observed` departs from the document; empty when it conforms. */
  function violations(observed: ObservedResponse): string[] {
    const method = observed.method.toUpperCase();
    const label = `${method} ${observed.path} → ${observed.status}`;
    const { template, operation } = operationOf(method, observed.path);
    if (!template || !operation) return [`${label}: operation not in the document`];

    const responses = operation.responses ?? {};
    const statusKey = [String(observed.status), `${String(observed.status)[0]}XX`, "default"].find((key) =>
      Object.hasOwn(responses, key),
    );
    if (!statusKey) {
      return [
        `${label}: response not described by the document (${method} ${template} documents ${Object.keys(responses).join(", ")})`,
      ];
    }
    const documented = responses[statusKey] as ResponseObject;
    const headers = observed.headers instanceof Headers ? observed.headers : new Headers(observed.headers);
    const responsePointer = ["", "paths", template, method.toLowerCase(), "responses", statusKey]
      .map(pointerSegment)
      .join("/");
    return [
      ...bodyViolations(observed, label, documented, responsePointer, headers),
      ...headerViolations(label, documented, responsePointer, headers),
    ];
  }

  /** Media type and body departures. */
  function bodyViolations(
    observed: ObservedResponse,
    label: string,
    documented: ResponseObject,
    responsePointer: string,
    headers: Headers,
  ): string[] {
    const found: string[] = [];

    const content = documented.content ?? {};
    const mediaTypes = Object.keys(content);
    const received = mediaTypeOf(headers.get("content-type"));
    if (mediaTypes.length === 0) {
      if (observed.body.length > 0) found.push(`${label}: the document describes no body, but one was sent`);
      return found;
    }
    const mediaType = mediaTypes.find((m) => m.toLowerCase() === received);
    if (!mediaType) {
      found.push(`${label}: content type ${received ?? "(none)"} is not the documented ${mediaTypes.join(" or ")}`);
      return found;
    }
    if (!content[mediaType]?.schema) return found;

    // A JSON body is validated as parsed JSON; any other media type (text/html …) as its text.
    let body: unknown = observed.body;
    if (/[/+]json$/.test(mediaType)) {
      try {
        body = JSON.parse(observed.body);
      } catch {
        found.push(`${label}: body is not JSON: ${observed.body.slice(0, 200)}`);
        return found;
      }
    }
    const pointer = `${responsePointer}/content/${pointerSegment(mediaType)}/schema`;
    const validate = validatorFor(pointer);
    if (!validate(body)) {
      found.push(
        `${label}: body does not match the documented schema:\n${formatErrors(validate.errors)}\n  body: ${observed.body.slice(0, 500)}`,
      );
    }
    return found;
  }

  /** Throws a ContractViolation listing every departure from the document. */
  function assertConforms(observed: ObservedResponse): void {
    const found = violations(observed);
    if (found.length > 0) throw new ContractViolation(found.join("\n"));
  }

  /** Every `METHOD path` pair of the document. */
  function operations(): { method: string; path: string; operation: OperationObject }[] {
    return Object.entries(document.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((m) => item[m] !== undefined).map((m) => ({
        method: m.toUpperCase(),
        path,
        operation: item[m] as OperationObject,
      })),
    );
  }

  return { violations, assertConforms, templateOf, operationOf, operations, document };
}

/** Checks one real Response (its body is read from a clone, so the caller can still read it). */
export async function checkResponse(
  checker: ContractChecker,
  method: string,
  path: string,
  response: Response,
): Promise<void> {
  const body = await response.clone().text();
  checker.assertConforms({ method, path, status: response.status, headers: response.headers, body });
}

/** openapi-fetch middleware that runs the contract check on every response of a client. */
export function contractMiddleware(checker: ContractChecker, onChecked?: (label: string) => void): Middleware {
  return {
    async onResponse({ request, response, schemaPath }) {
      await checkResponse(checker, request.method, schemaPath, response);
      onChecked?.(`${request.method} ${schemaPath} ${response.status}`);
      return undefined;
    },
  };
}
