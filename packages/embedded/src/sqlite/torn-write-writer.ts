/**
 * The writer of `torn-write.test.ts`, run in a node process of its own (`node --import tsx
 * torn-write-writer.ts <database file>`), to be killed with SIGKILL while it writes:
 *
 * commits one transaction after another as fast as it can through `EmbeddedDatabase` (a row with a
 * random payload of 64 B to 4 KiB and its SHA-256, and a tally of rows and bytes updated in the same
 * transaction), and prints each row's id on stdout once its transaction has committed: a printed id is
 * an acknowledged write. Continues after the highest id already in the file, so one file takes
 * several kills. Stops by itself after {@link MAX_RUN_MS}, should nobody kill it.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { writeSync } from 'node:fs';
import { EmbeddedDatabase } from './database.js';

const MAX_RUN_MS = 30_000;

const path = process.argv[2];
if (!path) {
  console.error('usage: torn-write-writer.ts <database file>');
  process.exit(2);
}

const database = new EmbeddedDatabase({ path });
database.ensureSchema(
  'torn-write',
  `CREATE TABLE IF NOT EXISTS torn_rows (id INTEGER PRIMARY KEY, payload BLOB NOT NULL, digest TEXT NOT NULL);
   CREATE INDEX IF NOT EXISTS torn_rows_digest ON torn_rows (digest);
   CREATE TABLE IF NOT EXISTS torn_tally (k TEXT PRIMARY KEY, rows INTEGER NOT NULL, bytes INTEGER NOT NULL);
   INSERT INTO torn_tally (k, rows, bytes) VALUES ('all', 0, 0) ON CONFLICT (k) DO NOTHING;`,
);
const insertRow = database.db.prepare('INSERT INTO torn_rows (id, payload, digest) VALUES (?, ?, ?)');
const countRow = database.db.prepare(
  "UPDATE torn_tally SET rows = rows + 1, bytes = bytes + ? WHERE k = 'all'",
);
const highest = database.db.prepare('SELECT coalesce(max(id), 0) AS id FROM torn_rows').get<{ id: number }>();

const deadline = Date.now() + MAX_RUN_MS;
let id = highest?.id ?? 0;
/**
 * Prints `line` on stdout before returning: an id acknowledged has left the process. Not
 * `process.stdout.write`: when the reader is slow (a loaded machine) and the pipe is full, it queues the
 * rest in the process and returns, and a kill then lost ids whose commits were in the file.
 */
function acknowledge(line: string): void {
  const bytes = Buffer.from(line);
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    }
  }
}

// One synchronous loop on purpose: the process is always inside or between commits when killed.
while (Date.now() < deadline) {
  id++;
  const payload = randomBytes(randomInt(64, 4097));
  const digest = createHash('sha256').update(payload).digest('hex');
  database.transaction(() => {
    insertRow.run(id, payload, digest);
    countRow.run(payload.length);
  });
  acknowledge(`${id}\n`);
}
database.close();
process.exit(3);
