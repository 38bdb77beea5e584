import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from './database.js';

/**
 * For tests: database files (WAL, as in use) in one temp directory of the test file; `removeAll`
 * (the file's `afterAll`) closes them all (closing twice is harmless) and removes the directory.
 */
export function tempDatabases(name: string): {
  /** A fresh, empty database in a file of its own. */
  fresh(): EmbeddedDatabase;
  /** Opens `file` in the temp directory: again for a second instance on it, or after a restart. */
  open(file: string): EmbeddedDatabase;
  /** The path of `file` in the temp directory. */
  path(file: string): string;
  removeAll(): void;
} {
  const dir = mkdtempSync(join(tmpdir(), `tickring-${name}-`));
  const opened: EmbeddedDatabase[] = [];
  let count = 0;
  const path = (file: string) => join(dir, file);
  const open = (file: string) => {
    const database = new EmbeddedDatabase({ path: path(file) });
    opened.push(database);
    return database;
  };
  return {
    fresh: () => open(`${++count}.db`),
    open,
    path,
    removeAll() {
      for (const database of opened) database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
