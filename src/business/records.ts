/** The business's own row: its settings as the API shows them, read and changed by the business itself. */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { recordIfChanged } from "../audit/record";
import type { Database } from "../db/client";
import { businesses } from "../db/schema";
import { ApiError } from "../lib/api-error";
import { ifMatchCondition, isUniqueViolation, nothingWritten } from "../lib/rows";
import { forgetSlug } from "../shards/directory";
import { directoryOf } from "../shards/shards";
import type { Actor } from "../types/actor";
import type { BookingPageSettings, ConflictSettings, EmailSettings, Locale } from "../types/business";

export type BusinessRow = typeof businesses.$inferSelect;

/** What a business may change of itself. */
export type BusinessChanges = Partial<{
  name: string;
  slug: string | null;
  timezone: string;
  locale: Locale;
  contactEmail: string | null;
  bookingPage: BookingPageSettings;
  emails: EmailSettings;
  conflicts: ConflictSettings;
}>;

/** The public shape of the business's row (its manage-link key version and its move's state stay inside). */
export function toBusiness({
  linkKeyVersion: _linkKeyVersion,
  relocationState: _relocationState,
  ...row
}: BusinessRow) {
  return row;
}

/** The caller's own business (always there: its key was just found live). */
export async function loadBusiness(db: Database, businessId: string): Promise<BusinessRow> {
  const [row] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  if (!row) throw new ApiError("not_found", `No business ${businessId}.`);
  return row;
}

/** The business whose booking page lives at `slug`, or undefined. */
export async function businessBySlug(db: Database, slug: string): Promise<BusinessRow | undefined> {
  const [row] = await db.select().from(businesses).where(eq(businesses.slug, slug)).limit(1);
  return row;
}

/** A change of the business's settings: what to set, the If-Match tags it needs (412 otherwise), and who makes it. */
export type BusinessEdit = { changes: BusinessChanges; ifMatch: string[] | undefined; actor: Actor };

/**
 * Replaces the given settings of the business (with If-Match tags, only if it still has one of
 * them: else 412). Nested settings (`bookingPage`, `emails`, `conflicts`) are replaced whole, as sent. A slug
 * another business has is a 409 `slug_taken`, decided by the directory's unique index in the same
 * statement: slugs are unique across every shard, and the directory finds a page's shard by them.
 */
export async function editBusiness(
  env: Env,
  db: Database,
  businessId: string,
  edit: BusinessEdit,
): Promise<BusinessRow> {
  const { changes } = edit;
  if (changes.slug !== undefined) await reserveSlug(env, businessId, changes.slug);
  let row: BusinessRow;
  try {
    row = await updateBusiness(db, businessId, edit);
  } catch (error) {
    // The shard kept its slug (412): the directory gets it back, so a page is found by one slug only.
    if (changes.slug !== undefined) await reserveSlug(env, businessId, (await loadBusiness(db, businessId)).slug);
    throw error;
  }
  // The directory's copy of the name, which the operator's list of accounts shows.
  if (changes.name !== undefined) {
    await directoryOf(env).prepare("UPDATE businesses SET name = ? WHERE id = ?").bind(row.name, businessId).run();
  }
  return row;
}

/** Records the business's slug in the directory; a 409 when another business has it. */
async function reserveSlug(env: Env, businessId: string, slug: string | null): Promise<void> {
  if (slug !== null) forgetSlug(slug);
  try {
    await directoryOf(env).prepare("UPDATE businesses SET slug = ? WHERE id = ?").bind(slug, businessId).run();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError("slug_taken", `Another business has the slug ${slug}; choose another.`, {
      errors: [{ path: "slug", message: "Taken by another business." }],
    });
  }
}

/** The shard's row of the business changed as asked (`editBusiness`). */
async function updateBusiness(
  db: Database,
  businessId: string,
  { changes, ifMatch, actor }: BusinessEdit,
): Promise<BusinessRow> {
  let unchangedSince: SQL | undefined;
  if (ifMatch !== undefined) {
    const current = await loadBusiness(db, businessId);
    unchangedSince = ifMatchCondition(ifMatch, businesses.version, current.version);
  }
  let row: BusinessRow | undefined;
  try {
    // The record rides the update's batch, and is written only when the update was.
    [[row]] = await db.batch([
      db
        .update(businesses)
        .set({ ...changes, version: sql`${businesses.version} + 1`, updatedAt: new Date().toISOString() })
        .where(and(eq(businesses.id, businessId), unchangedSince))
        .returning(),
      recordIfChanged(db, {
        businessId,
        actor,
        action: "business.updated",
        resource: { type: "business", id: businessId },
        fields: Object.keys(changes),
      }),
    ]);
  } catch (error) {
    // The slug is the only unique column a business changes.
    if (!isUniqueViolation(error)) throw error;
    throw new ApiError("slug_taken", `Another business has the slug ${changes.slug}; choose another.`, {
      errors: [{ path: "slug", message: "Taken by another business." }],
    });
  }
  if (!row) throw nothingWritten("business", businessId, ifMatch);
  return row;
}
