/** The API keys' request and answer bodies (`/api-keys`), shared by its routes and the office's API keys page. */

import { utcTimestamp } from "../lib/datetime";
import { z } from "../lib/zod";
import { listOf } from "../lists/pagination";
import { scopeDescriptions, scopes } from "../types/scopes";

export const ScopeSchema = z.enum(scopes).openapi("Scope", {
  description: Object.entries(scopeDescriptions)
    .map(([scope, covers]) => `\`${scope}\`: ${covers}`)
    .join("\n"),
});

export const CreateApiKeySchema = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .openapi({ description: "What the key is for.", example: "Front desk tablet" }),
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(scopes.length)
      .refine((list) => new Set(list).size === list.length, { message: "List each scope once." })
      .openapi({
        uniqueItems: true,
        description: "What the key may do; none the calling key lacks.",
        example: ["bookings:read", "bookings:write", "customers:read"],
      }),
    mode: z.enum(["live", "test"]).optional().openapi({
      description: "`bk_live_…` (the default) or `bk_test_…`: the same rights, told apart by their prefix.",
    }),
  })
  .openapi("CreateApiKey");

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01jd3k5v7q8r9s0t1u2v3w4x5y" }),
    name: z.string().nullable().openapi({ description: "Null for a key made before keys had names." }),
    prefix: z.string().openapi({ description: "The key's first 12 characters.", example: "bk_live_a1B2" }),
    mode: z.enum(["live", "test"]),
    scopes: z.array(ScopeSchema).openapi({ description: "A key made before scopes lists every scope." }),
    createdAt: utcTimestamp,
    revokedAt: utcTimestamp.nullable(),
  })
  .openapi("ApiKey");

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: "The key itself: shown this once, never stored.", example: "bk_live_…" }),
}).openapi("CreatedApiKey");

export const ApiKeyListSchema = listOf(ApiKeySchema, "ApiKeyList");
