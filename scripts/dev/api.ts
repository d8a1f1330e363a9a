/**
 * The local API as the demo business calls it: JSON over HTTP with the demo key. The demo data
 * goes through the API, not into D1, so it is made by the same rules (and calendars) as a
 * user's own.
 */
import { DEMO_API_KEY } from "../lib/demo.ts";

export type ApiResponse = { status: number; body: unknown };

/** One request with the demo key: `path` below `/api/v1`, `body` sent as JSON. */
export type DemoApi = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiResponse>;

/** A list's answer. */
export type ListBody<T> = { data: T[]; pagination?: { total?: number } };

/** The demo business's client of the API at `baseUrl`; a request that takes over 15 s fails. */
export function demoApi(baseUrl: string): DemoApi {
  return async (method, path, body, headers = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${DEMO_API_KEY}`,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {}
    return { status: response.status, body: parsed };
  };
}

/** "HTTP 409 customer_exists: A customer with …" from a problem+json answer. */
export function problemText(r: ApiResponse): string {
  const p = (r.body ?? {}) as { code?: string; detail?: string; errors?: { path: string; message: string }[] };
  const fields = p.errors?.map((e) => `${e.path}: ${e.message}`).join("; ");
  return [`HTTP ${r.status}`, p.code, p.detail, fields].filter(Boolean).join(" ");
}

/** How many items a list answer says there are. */
export function totalOf(r: ApiResponse): number {
  const b = r.body as ListBody<unknown>;
  return b.pagination?.total ?? b.data?.length ?? 0;
}
