/** The businesses (tenants), their API keys and members, and the audit of every change to them. */

import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { BookingPageSettings, ConflictSettings, EmailSettings } from "../../types/business.ts";
import type { Scope } from "../../types/scopes.ts";

export const businesses = sqliteTable(
  "businesses",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /**
     * Which key signs the business's manage links (src/manage-links/tokens.ts derives it from a Worker
     * secret and this number; no key is stored). Rotating moves it on and every earlier link dies.
     */
    linkKeyVersion: integer("link_key_version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** The booking page's address (`/book/{slug}`): unique across businesses; null until set. */
    slug: text("slug"),
    /** IANA time zone the business's pages and e-mails fall back to. */
    timezone: text("timezone").notNull().default("UTC"),
    /** Language of the booking page's default and of e-mails: `en` or `de`. */
    locale: text("locale", { enum: ["en", "de"] })
      .notNull()
      .default("en"),
    /** Where customers can reach the business (shown on pages, used as an e-mail's reply address). */
    contactEmail: text("contact_email"),
    /** JSON: `{ enabled, title?, accentColor? }`. */
    bookingPage: text("booking_page", { mode: "json" })
      .notNull()
      .default({ enabled: false })
      .$type<BookingPageSettings>(),
    /** JSON: `{ enabled, fromName?, replyTo? }`. */
    emails: text("emails", { mode: "json" }).notNull().default({ enabled: false }).$type<EmailSettings>(),
    /** JSON: `{ notifyCustomer }`: what a booking that stops fitting tells its customer. */
    conflicts: text("conflicts", { mode: "json" })
      .notNull()
      .default({ notifyCustomer: false })
      .$type<ConflictSettings>(),
    /** Moves forward on every change of the settings: the ETag. */
    version: integer("version").notNull().default(1),
    /**
     * The tenant shard (binding `DB_<shard>`) holding the business's records; chosen when the
     * account is made (src/business/new-business.ts, `leastFullShard`). The directory's row is the one that counts.
     */
    shard: integer("shard").notNull().default(0),
    /**
     * On a shard's row while the business moves between shards (src/relocations): `leaving` on
     * the old shard (reads answered, writes held), `arriving` on the new one (nothing answered
     * until the directory names it). Null otherwise. A shard's row whose `shard` names another
     * shard is the forwarding row a moved business leaves behind.
     */
    relocationState: text("move_state", { enum: ["leaving", "arriving"] }),
  },
  (t) => [uniqueIndex("businesses_slug_uq").on(t.slug)],
);

/** The column of a tenant-owned row that names its business; the table's indexes lead with it. */
export const businessIdColumn = () =>
  text("business_id")
    .notNull()
    .references(() => businesses.id);

/** The id and the owning business of a tenant-owned row. */
export const ownedRowColumns = () => ({ id: text("id").primaryKey(), businessId: businessIdColumn() });

/** When a row was made and last changed. */
export const timestampColumns = () => ({
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** A required column naming a row of another table (by its id). */
export const requiredRef = (name: string, ref: () => AnySQLiteColumn) => text(name).notNull().references(ref);

export const apiKeys = sqliteTable(
  "api_keys",
  {
    ...ownedRowColumns(),
    /** SHA-256 of the whole key, lowercase hex. The key itself is never stored. */
    keyHash: text("key_hash").notNull(),
    /** First characters of the key (e.g. `bk_live_a1b2`), to tell keys apart in listings. */
    keyPrefix: text("key_prefix").notNull(),
    /** What the key is for, as its maker named it (null for keys from before names). */
    name: text("name"),
    /** JSON list of the key's scopes (src/types/scopes.ts); null for a key from before scopes: every scope. */
    scopes: text("scopes", { mode: "json" }).$type<Scope[]>(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_uq").on(t.keyHash), index("api_keys_business_idx").on(t.businessId)],
);

/**
 * A change to a business's resources. Written in the same D1 batch as the change (or, for a
 * calendar's change, the same write-behind batch as its booking row), so neither is ever kept
 * without the other. `fields` lists names only: no customer's name, e-mail or phone is ever here.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    /** `aud_…`: a ULID, so ids sort by when the change was made (newest first pages by it). */
    id: text("id").primaryKey(),
    businessId: businessIdColumn(),
    at: text("at").notNull(),
    actorType: text("actor_type", { enum: ["member", "apiKey", "customer", "system"] }).notNull(),
    actorId: text("actor_id").notNull(),
    /** `<resource>.<verb>`, e.g. `booking.cancelled`, `service.updated`, `apiKey.revoked`. */
    action: text("action").notNull(),
    resourceType: text("resource_type").notNull(),
    resourceId: text("resource_id").notNull(),
    /** JSON list of the names of the fields the change set. */
    fields: text("fields", { mode: "json" }).notNull().$type<string[]>(),
  },
  (t) => [
    index("audit_events_business_idx").on(t.businessId, t.id),
    index("audit_events_resource_idx").on(t.businessId, t.resourceId, t.id),
    index("audit_events_actor_idx").on(t.businessId, t.actorId, t.id),
    index("audit_events_at_idx").on(t.at),
  ],
);

/**
 * The people who sign in for a business (docs/members.md). They live in the directory (`DB`), like
 * the keys' rows there: a sign-in or a session names its member before any shard is known, and the
 * "last active owner" rule is one statement on one database.
 */
export const members = sqliteTable(
  "members",
  {
    ...ownedRowColumns(),
    /** Lower-cased: one member per address and business. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ["owner", "frontdesk", "staff"] }).notNull(),
    /** The provider a staff member is (on the business's shard); null for the other roles. */
    providerId: text("provider_id"),
    status: text("status", { enum: ["invited", "active", "disabled"] }).notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    lastSignInAt: text("last_sign_in_at"),
  },
  (t) => [uniqueIndex("members_business_email_uq").on(t.businessId, t.email), index("members_email_idx").on(t.email)],
);

export type MemberRow = typeof members.$inferSelect;

/**
 * Signed-in members' sessions. The id is the SHA-256 of the cookie's value (the cookie itself is
 * never stored). Ends at `expiresAt` (30 days from sign-in) or 12 h after `lastSeenAt`.
 */
export const memberSessions = sqliteTable(
  "member_sessions",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id").notNull(),
    createdAt: text("created_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("member_sessions_member_idx").on(t.memberId)],
);

/**
 * Every sign-in e-mail asked for, known address or not (so both cost the same and count alike
 * against the bounds per address and per client). `id` is the SHA-256 of the link's token; a row
 * of an unknown address has no member and its token was never sent.
 */
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    id: text("id").primaryKey(),
    memberId: text("member_id"),
    /** SHA-256 of the lower-cased address, and of the client's address: what the bounds count. */
    emailHash: text("email_hash").notNull(),
    clientHash: text("client_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [
    index("sign_in_links_email_idx").on(t.emailHash, t.createdAt),
    index("sign_in_links_client_idx").on(t.clientHash, t.createdAt),
  ],
);

/**
 * Members' passkeys (WebAuthn credentials; docs/members.md, "Passkeys"). The public key verifies
 * a sign-in; nothing here signs anyone in by itself. `id` (`psk_…`) names the row in the office and
 * the audit; `credentialId` is the authenticator's (base64url), what a sign-in names.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    ...ownedRowColumns(),
    credentialId: text("credential_id").notNull(),
    memberId: text("member_id").notNull(),
    name: text("name").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    /** The authenticator's signature counter (0 for those that keep none). */
    counter: integer("counter").notNull(),
    /** JSON list of the transports the browser reported (`internal`, `hybrid`, `usb`, …). */
    transports: text("transports", { mode: "json" }).notNull().$type<string[]>(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("passkeys_credential_uq").on(t.credentialId), index("passkeys_member_idx").on(t.memberId)],
);

/**
 * The challenges of passkey ceremonies: good once, for 5 minutes. One to add a passkey is bound to
 * the session that asked (`sessionId`, the session's hash) and counted per session; one to sign in
 * to nobody, and counted per client (`clientHash`).
 */
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    /** The challenge itself (base64url, 32 random bytes). */
    id: text("id").primaryKey(),
    purpose: text("purpose", { enum: ["register", "sign-in"] }).notNull(),
    sessionId: text("session_id"),
    clientHash: text("client_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [
    index("passkey_challenges_client_idx").on(t.clientHash, t.createdAt),
    index("passkey_challenges_session_idx").on(t.sessionId, t.createdAt),
  ],
);
