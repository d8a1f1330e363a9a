/** Schema migrations of a Durable Object's SQLite storage, shared by every calendar object. */

/** Brings the tables up to `migrations.length`; cheap when they are (one read of the schema version). */
export function migrate(sql: SqlStorage, migrations: readonly string[]): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const row = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray()[0];
  const current = row?.version ?? 0;
  for (let v = current; v < migrations.length; v++) sql.exec(migrations[v] as string);
  if (!row) sql.exec("INSERT INTO schema_version (version) VALUES (?)", migrations.length);
  else if (current < migrations.length) sql.exec("UPDATE schema_version SET version = ?", migrations.length);
}
