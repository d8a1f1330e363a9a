import type { CalendarBookmarks } from "./db/bookmarks";
import type { Database } from "./db/client";
import type { KeyScopes } from "./types/scopes";

/** The caller, resolved from its API key by the auth middleware. */
export type Caller = {
  businessId: string;
  businessName: string;
  keyId: string;
  /** The version of the business's manage-link key (src/manage-links/tokens.ts). */
  linkKeyVersion: number;
  /** The tenant shard the business's records live on (src/shards). */
  shard: number;
  /** What the key may do (src/types/scopes.ts); null for a key from before scopes: everything. */
  scopes: KeyScopes;
  /** Set when a signed-in member makes the request (src/access/members.ts): who, in which role. */
  member?: CallerMember;
};

/** The member behind a signed-in request; a staff member's reads are limited to `providerId`. */
export type CallerMember = { id: string; role: "owner" | "frontdesk" | "staff"; providerId: string | null };

/** A read request's key check, owed until one of the request's D1 round trips made it. */
/** A read's key check still owed (`owed`), for the key with this hash, on the shard the request runs on. */
export type KeyCheck = { keyHash: string; owed: boolean; shard: number };

/** Hono environment shared by every route: Worker bindings plus per-request variables. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    db: Database;
    /** A keyed request's D1 session on its shard (src/shards/session.ts): its reads, its bookmark. */
    session?: D1DatabaseSession;
    /** A keyed write's bookmarks handed back by the calendars it called (src/db/bookmarks.ts). */
    calendarBookmarks?: CalendarBookmarks;
    caller: Caller;
    /** The caller an in-process request (an MCP tool's call) was sent for (src/middleware/key-check.ts). */
    vouched?: Caller;
    /** Set on a read from a key this isolate has seen: the key check the request still owes. */
    keyCheck?: KeyCheck;
    /** Rows D1 read for this request's batched reads (`meta.rows_read`), for the request log. */
    rowsRead?: number;
    /** Set by a route whose successful answers are not logged (the liveness check). */
    unlogged?: boolean;
  };
};
