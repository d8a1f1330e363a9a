/**
 * The provider calendar's own SQLite tables. Claims carry their blocked span so the busy check
 * is one indexed range scan over the overlapping claims only.
 */
const migrations: string[] = [
  `CREATE TABLE provider (
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
];

/** Brings the tables up to date; cheap when they are (one read of the schema version). */
export function migrate(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
  const current = row?.version ?? 0;
  for (let v = current; v < migrations.length; v++) sql.exec(migrations[v] as string);
  if (!row) sql.exec("INSERT INTO schema_version (version) VALUES (?)", migrations.length);
  else if (current < migrations.length) sql.exec("UPDATE schema_version SET version = ?", migrations.length);
}
