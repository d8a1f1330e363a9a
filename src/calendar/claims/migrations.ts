/**
 * The SQLite tables of a claimed calendar (a person's, a room's). Claims carry their blocked span
 * so the check is one indexed range scan over the overlapping claims only; released claim ids
 * are remembered (tombstones) so a late duplicate cannot bring a claim back.
 */

/** The migrations, with the owner's settings kept in `settingsTable`. */
export const claimedMigrations = (settingsTable: string): string[] => [
  `CREATE TABLE ${settingsTable} (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     version INTEGER NOT NULL,
     settings TEXT NOT NULL
   );
   CREATE TABLE claims (
     claim_id TEXT PRIMARY KEY,
     service_id TEXT NOT NULL,
     start_ms INTEGER NOT NULL,
     end_ms INTEGER NOT NULL,
     blocked_start_ms INTEGER NOT NULL,
     blocked_end_ms INTEGER NOT NULL,
     capacity INTEGER NOT NULL,
     expires_ms INTEGER,
     created_ms INTEGER NOT NULL
   );
   CREATE INDEX claims_blocked ON claims (blocked_start_ms, blocked_end_ms);
   CREATE INDEX claims_start ON claims (start_ms);
   CREATE INDEX claims_expiring ON claims (expires_ms) WHERE expires_ms IS NOT NULL;
   CREATE TABLE tombstones (claim_id TEXT PRIMARY KEY, released_ms INTEGER NOT NULL);
   CREATE INDEX tombstones_released ON tombstones (released_ms);
   CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
   INSERT INTO meta (key, value) VALUES ('max_blocked_ms', 0);`,
  // Claims that ended long ago are pruned by the alarm; it finds the oldest by this index.
  "CREATE INDEX claims_blocked_end ON claims (blocked_end_ms);",
  // Which session a claim's seat belongs to (claims of one session share the calendar).
  `ALTER TABLE claims ADD COLUMN session TEXT NOT NULL DEFAULT '';
   UPDATE claims SET session = service_id || '@' || start_ms;`,
];
