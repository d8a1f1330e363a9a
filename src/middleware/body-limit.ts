import { bodyLimit as countedBodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/api-error";

/**
 * Caps request bodies before anything parses them, with Hono's body limit: the bytes are counted
 * as they arrive and buffered, and one past the cap is the 413 `payload_too_large` problem (thrown,
 * so the app's one error handler answers it). A declared `Content-Length` over the cap is refused
 * at once. A smaller one is not believed: Hono's limit would skip counting a body that declares a
 * length, and workerd hands a Worker the whole body behind a header that claims less
 * (test/http/hardening.test.ts), so the header is taken off and the bytes are counted anyway.
 */
export const bodyLimit = (maxBytes: number) => {
  const tooLarge = (): never => {
    throw new ApiError("payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1024)} KiB.`);
  };
  const counted = countedBodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return createMiddleware<AppEnv>(async (c, next) => {
    const declared = c.req.header("Content-Length");
    if (c.req.raw.body && declared !== undefined) {
      if (Number(declared) > maxBytes) tooLarge();
      const headers = new Headers(c.req.raw.headers);
      headers.delete("Content-Length");
      c.req.raw = new Request(c.req.raw, { headers });
    }
    await counted(c, next);
  });
};
