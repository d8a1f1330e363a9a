/**
 * What `import { z } from "zod"` means in the bundle: `wrangler.toml` [alias] points "zod" here.
 * The only such import is `@hono/zod-openapi`'s, which passes `z` to `extendZodWithOpenApi`: a
 * namespace passed as a value keeps every one of its exports alive, and zod's own would keep all
 * of zod (41 KB gzip of locales alone). This namespace holds only the members the API uses, and
 * they are zod's own classes, so `.openapi()` and `instanceof` work the same on both sides.
 */
export * as z from "./members";
