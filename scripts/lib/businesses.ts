/** SQL that stores account and key records (built by src/business/new-business.ts) through wrangler. */
import {
  type ApiKeyRecord,
  apiKeyRecord,
  type BusinessRecord,
  leastFullShard,
  newApiKey,
  newBusiness,
} from "../../src/business/new-business.ts";
import { apiKeyPattern, sha256Hex } from "../../src/lib/crypto.ts";
import { idPrefixes } from "../../src/lib/ids.ts";
import { sql } from "./wrangler.ts";

export type KeyMode = "live" | "test";
export {
  type ApiKeyRecord,
  apiKeyPattern,
  apiKeyRecord,
  type BusinessRecord,
  leastFullShard,
  newApiKey,
  newBusiness,
  sha256Hex,
};

/** Ids look like `biz_` + a lower-case ULID (26 Crockford base32 characters). */
const ulidPart = "[0-9a-hjkmnp-tv-z]{26}";
export const businessIdPattern = new RegExp(`^${idPrefixes.business}_${ulidPart}$`);
export const apiKeyIdPattern = new RegExp(`^${idPrefixes.apiKey}_${ulidPart}$`);

/** The business's row, with its shard (0 unless the record names one): the same in the directory and on the shard. */
export function insertBusinessSql(b: BusinessRecord, orIgnore = false): string {
  return `INSERT${orIgnore ? " OR IGNORE" : ""} INTO businesses (id, name, created_at, updated_at, shard) VALUES ${sql`(${b.id}, ${b.name}, ${b.createdAt}, ${b.updatedAt}, ${b.shard ?? 0})`};`;
}

export function insertApiKeySql(k: ApiKeyRecord): string {
  const scopes = k.scopes === null ? null : JSON.stringify(k.scopes);
  return sql`INSERT INTO api_keys (id, business_id, key_hash, key_prefix, name, scopes, created_at, revoked_at) VALUES (${k.id}, ${k.businessId}, ${k.keyHash}, ${k.keyPrefix}, ${k.name}, ${scopes}, ${k.createdAt}, ${k.revokedAt});`;
}
