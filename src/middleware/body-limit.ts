import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

const tooLarge = (maxBytes: number) =>
  new ApiError("payload_too_large", `The request body is larger than ${Math.round(maxBytes / 1024)} KiB.`);

/**
 * Caps request bodies before anything parses them. A declared `Content-Length` over the cap is
 * refused at once; otherwise the bytes are counted as they arrive, whatever the header claims.
 */
export const bodyLimit = (maxBytes: number) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    if (Number(c.req.header("Content-Length") ?? 0) > maxBytes) throw tooLarge(maxBytes);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      size += read.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(read.value);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    c.req.raw = new Request(c.req.raw, { body: bytes });
    await next();
  });
