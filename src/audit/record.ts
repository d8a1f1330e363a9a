/**
 * Audit records, written as statements of the change's own D1 batch: a change and its record
 * commit together or not at all. A change that may find nothing to do (a bound reached, a row
 * already gone) is followed by `recordIfChanged`, which writes only when the statement before it
 * in the batch changed a row.
 */

import { sql } from "drizzle-orm";
import { encodeTime } from "ulid";
import type { Database } from "../db/client";
import { auditEvents } from "../db/schema";
import { newId } from "../lib/ids";
import { insertWhere } from "../lib/rows";
import type { Actor } from "../types/actor";

/** A change as the audit records it; `fields` are names, never values. */
export type AuditEntry = {
  /** The record's id when it is derived from the change (so a change written twice is recorded once); else a new one. */
  id?: string;
  businessId: string;
  actor: Actor;
  /** `<resource>.<verb>`: `service.updated`, `booking.cancelled`, … */
  action: string;
  resource: { type: string; id: string };
  fields?: string[];
};

/** A record as D1 stores it. */
export type AuditRow = typeof auditEvents.$inferInsert & { id: string };

/** The stored row of an entry, made now. */
export function auditRow(entry: AuditEntry, now = Date.now()): AuditRow {
  return {
    id: entry.id ?? newId("audit", now),
    businessId: entry.businessId,
    at: new Date(now).toISOString(),
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    action: entry.action,
    resourceType: entry.resource.type,
    resourceId: entry.resource.id,
    fields: [...new Set(entry.fields ?? [])].sort(),
  };
}

/**
 * The id of the record of a resource's creation: the resource's own (`hld_…` → `aud_…`), so it
 * sorts by when the resource was made and the record can be found (and taken back) by it.
 */
export const creationAuditId = (resourceId: string): string => `aud_${resourceId.slice(4)}`;

/**
 * The id of the record of a change to a resource made at `at` (ms): the time part says when,
 * the rest is the resource's, so the same change recorded again gets the same id.
 */
export const changeAuditId = (resourceId: string, at: number): string =>
  `aud_${encodeTime(at, 10).toLowerCase()}${resourceId.slice(-16)}`;

/** The names of the fields a change sets: its keys with a value (null included: a field cleared). */
export const fieldsOf = (changes: object): string[] =>
  Object.entries(changes)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);

/**
 * Writes records whose ids were fixed when their change was made (kept by a calendar object until
 * D1 has them): one D1 holds already stays as it is, so writing a record twice records it once.
 */
export const writeRecords = (db: Database, rows: readonly AuditRow[]) =>
  db
    .insert(auditEvents)
    .values([...rows])
    .onConflictDoNothing({ target: auditEvents.id });

/** The insert of an entry's record, to run in the change's batch; `at` (ms) when it happened earlier than now. */
export const recordQuery = (db: Database, entry: AuditEntry, at?: number) =>
  db.insert(auditEvents).values(auditRow(entry, at));

/**
 * The insert of an entry's record that writes only when the batch's statement just before it
 * changed a row (SQLite's `changes()`), so a refused or idle change leaves no record.
 */
export const recordIfChanged = (db: Database, entry: AuditEntry) =>
  insertWhere(db, auditEvents, auditRow(entry), sql`changes() > 0`);
