/** Customers: one per e-mail address and business. */
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { ownedRowColumns, timestampColumns } from "./businesses.ts";

export const customers = sqliteTable(
  "customers",
  {
    ...ownedRowColumns(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    /** Lower-cased e-mail: the per-business identity of a customer. */
    emailNormalized: text("email_normalized").notNull(),
    /** Lower-cased name, so search is case-insensitive beyond ASCII. */
    nameNormalized: text("name_normalized").notNull(),
    phone: text("phone"),
    ...timestampColumns(),
    /** Set when the person was erased: the row stays (bookings reference it) with placeholders only. */
    erasedAt: text("erased_at"),
  },
  (t) => [
    uniqueIndex("customers_business_email_uq").on(t.businessId, t.emailNormalized),
    index("customers_business_id_idx").on(t.businessId, t.id),
  ],
);

export type CustomerRow = typeof customers.$inferSelect;
