/**
 * Characters in the object's SQLite storage. A Durable Object's SQLite allows at most 100
 * bound parameters per statement, so every statement here binds one: the rows travel as one
 * JSON text and SQLite's `json_each` unpacks them, however many there are.
 */

/** What is kept of a character between visits. */
export interface Saved {
  name: string;
  x: number;
  y: number;
  heading: number;
}

/** The characters table of one city. */
export class Store {
  /** Rows written, and statements run, since the object started. */
  rowsWritten = 0;
  statements = 0;

  constructor(private readonly sql: SqlStorage) {
    sql.exec(
      "CREATE TABLE IF NOT EXISTS characters (name TEXT PRIMARY KEY, x REAL NOT NULL, y REAL NOT NULL, heading REAL NOT NULL, saved_ms INTEGER NOT NULL)",
    );
    sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  }

  /** A value of the city's own records (its name, how often its memory was built). */
  meta(key: string): string | undefined {
    const rows = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray();
    return rows[0]?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql.exec("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, value);
  }

  /** Upserts every character in one statement with one bound parameter. */
  save(rows: readonly Saved[], nowMs: number): void {
    if (rows.length === 0) return;
    this.sql.exec(
      `INSERT INTO characters (name, x, y, heading, saved_ms)
       SELECT json_extract(value, '$.name'), json_extract(value, '$.x'), json_extract(value, '$.y'),
              json_extract(value, '$.heading'), ${Math.floor(nowMs)}
       FROM json_each(?)
       WHERE true
       ON CONFLICT (name) DO UPDATE SET x = excluded.x, y = excluded.y, heading = excluded.heading, saved_ms = excluded.saved_ms`,
      JSON.stringify(rows),
    );
    this.rowsWritten += rows.length;
    this.statements += 1;
  }

  /** The saved characters among `names` (one bound parameter, however many names). */
  load(names: readonly string[]): Map<string, Saved> {
    const out = new Map<string, Saved>();
    if (names.length === 0) return out;
    const cur = this.sql.exec<{ name: string; x: number; y: number; heading: number }>(
      "SELECT name, x, y, heading FROM characters WHERE name IN (SELECT value FROM json_each(?))",
      JSON.stringify(names),
    );
    for (const r of cur) out.set(r.name, { name: r.name, x: r.x, y: r.y, heading: r.heading });
    this.statements += 1;
    return out;
  }

  /** How many characters the city has saved. */
  count(): number {
    return this.sql.exec<{ n: number }>("SELECT count(*) AS n FROM characters").one().n;
  }
}
