/**
 * One HTTP exchange with a CalDAV server, bounded: a time limit per request, the answer read as
 * a stream and given up past a size limit (a server cannot make the object hold more than that),
 * no redirect followed (a redirect could lead to an address the URL rules refuse). Failures are
 * `CaldavError`s whose message can be shown to the business: it names the status or the cause,
 * never the credentials.
 */

/** How long one request may take, answer included. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** The most of one answer that is read: 8 MiB (a listing of 10,000 events is about 3 MB). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** Where a calendar is and how to sign in to it (credentials decrypted, for the request only). */
export type CaldavAccess = { url: string; username?: string | null; password?: string | null };

/** How the object sends a request: `fetch`, unless a test puts something in front of it. */
export type Fetcher = (request: Request) => Promise<Response>;

/** A failed exchange, with a message fit for `lastError`. */
export class CaldavError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** What a request answered: its status, headers and text. */
export type DavAnswer = { status: number; headers: Headers; text: string };

const utf8 = new TextEncoder();

/** `Basic` credentials, UTF-8 (RFC 7617). */
function basic(username: string, password: string): string {
  const bytes = utf8.encode(`${username}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** Reads at most `limit` bytes of a body as UTF-8; a longer one is a `CaldavError`. */
export async function readBounded(body: ReadableStream<Uint8Array> | null, limit = MAX_RESPONSE_BYTES) {
  if (!body) return "";
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new CaldavError(`The calendar server's answer is larger than ${limit / 1024 / 1024} MiB.`);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Why a status is a failure, in words. */
function statusProblem(status: number): string {
  if (status === 401 || status === 403) return `The calendar server refused the credentials (HTTP ${status}).`;
  if (status === 404) return "The calendar URL was not found on the server (HTTP 404).";
  if (status >= 300 && status < 400) {
    return `The calendar server redirected elsewhere (HTTP ${status}): use the calendar collection's own URL.`;
  }
  return `The calendar server answered HTTP ${status}.`;
}

/**
 * Sends one request to `url` (the calendar's or one of its members'); answers when the status
 * is one of `expect`, else throws a `CaldavError`.
 */
export async function davRequest(
  fetcher: Fetcher,
  access: CaldavAccess,
  init: { method: string; url?: string; headers?: Record<string, string>; body?: string; expect: number[] },
): Promise<DavAnswer> {
  const headers = new Headers(init.headers);
  if (access.username || access.password) {
    headers.set("Authorization", basic(access.username ?? "", access.password ?? ""));
  }
  headers.set("User-Agent", "booking-api-calendars/1");
  const request = new Request(init.url ?? access.url, {
    method: init.method,
    headers,
    body: init.body,
    redirect: "manual",
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  let response: Response;
  let text: string;
  try {
    response = await fetcher(request);
    text = init.expect.includes(response.status) ? await readBounded(response.body) : "";
  } catch (error) {
    if (error instanceof CaldavError) throw error;
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") {
      throw new CaldavError(`The calendar server did not answer within ${REQUEST_TIMEOUT_MS / 1000} s.`);
    }
    const detail = error instanceof Error ? error.message : String(error);
    throw new CaldavError(`The calendar server could not be reached (${detail.slice(0, 200)}).`);
  }
  if (!init.expect.includes(response.status)) {
    await response.body?.cancel().catch(() => {});
    throw new CaldavError(statusProblem(response.status), response.status);
  }
  return { status: response.status, headers: response.headers, text };
}
