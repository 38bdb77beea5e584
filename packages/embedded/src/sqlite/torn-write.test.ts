import { spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDatabases } from './temp-databases.js';

/**
 * The storage layer under kill -9 (WAL, synchronous = NORMAL): a writer process commits as fast as it
 * can and acknowledges each commit on stdout; it is killed at a random count of acknowledgements, three
 * times on one file. After each kill the file opens, `integrity_check` says ok, every acknowledged row
 * is there with its payload intact, no transaction is there by half (the tally written with each row
 * matches the rows), and at most one transaction beyond the acknowledged ones (committed, its id not yet
 * printed) is there.
 */

const WRITER = fileURLToPath(new URL('./torn-write-writer.ts', import.meta.url));
const KILLS = 3;
/** Three node processes start here (tsx compiling the writer each time): more than the unit default on a busy machine. */
const TIMEOUT_MS = 60_000;

const databases = tempDatabases('torn-write');
afterAll(() => databases.removeAll());

interface KilledWriter {
  readonly acknowledged: readonly number[];
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Runs the writer on `file` and SIGKILLs it once it has acknowledged `killAfter` commits. */
function writeUntilKilled(file: string, killAfter: number): Promise<KilledWriter> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acknowledged: number[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    // Lines read after the kill count too: each was printed after its commit.
    createInterface({ input: child.stdout }).on('line', (line) => {
      acknowledged.push(Number(line));
      if (acknowledged.length === killAfter) child.kill('SIGKILL');
    });
    child.once('error', reject);
    child.once('close', (_code, signal) => resolve({ acknowledged, signal, stderr }));
  });
}

describe('EmbeddedDatabase under kill -9 in the middle of a burst of commits', () => {
  it('opens intact with every acknowledged commit, whole, after each of three kills', {
    timeout: TIMEOUT_MS,
  }, async () => {
    const file = 'torn.db';
    const path = databases.path(file);
    const acknowledged = new Set<number>();
    const unacknowledgedBefore = new Set<number>();
    const rounds: string[] = [];
    for (let round = 1; round <= KILLS; round++) {
      const killAfter = randomInt(200, 1_500);
      const writer = await writeUntilKilled(path, killAfter);
      expect(writer.signal, `round ${round}: the writer was killed (stderr: ${writer.stderr})`).toBe(
        'SIGKILL',
      );
      expect(writer.acknowledged.length).toBeGreaterThanOrEqual(killAfter);
      for (const id of writer.acknowledged) acknowledged.add(id);
      const walBytes = statSync(`${path}-wal`).size;

      const database = databases.open(file);
      expect(database.integrityCheck(), `round ${round}: integrity_check`).toBe('ok');
      const rows = database.db
        .prepare('SELECT id, payload, digest FROM torn_rows ORDER BY id')
        .all<{ id: number; payload: Uint8Array; digest: string }>()
        // libsql hands a BLOB back as an ArrayBuffer (not the Uint8Array SqlValue names): viewed as bytes here.
        .map((r) => ({ ...r, payload: new Uint8Array(r.payload) }));
      const present = new Set(rows.map((r) => r.id));
      const lost = [...acknowledged].filter((id) => !present.has(id));
      expect(lost, `round ${round}: acknowledged rows missing`).toEqual([]);
      const damaged = rows.filter((r) => createHash('sha256').update(r.payload).digest('hex') !== r.digest);
      expect(
        damaged.map((r) => r.id),
        `round ${round}: rows whose payload does not match its digest`,
      ).toEqual([]);
      const tally = database.db.prepare("SELECT rows, bytes FROM torn_tally WHERE k = 'all'").get();
      expect(tally, `round ${round}: the tally matches the rows (no half transaction)`).toEqual({
        rows: rows.length,
        bytes: rows.reduce((sum, r) => sum + r.payload.length, 0),
      });
      // Each kill may leave one commit whose acknowledgement it cut off; earlier rounds' stay counted.
      const unacknowledged = rows.filter((r) => !acknowledged.has(r.id)).map((r) => r.id);
      const newlyUnacknowledged = unacknowledged.filter((id) => !unacknowledgedBefore.has(id));
      expect(
        newlyUnacknowledged.length,
        `round ${round}: rows beyond the acknowledged ones (${newlyUnacknowledged.join(', ')})`,
      ).toBeLessThanOrEqual(1);
      for (const id of unacknowledged) unacknowledgedBefore.add(id);
      database.close();
      rounds.push(
        `kill ${round} after ${killAfter} acks: ${writer.acknowledged.length} acknowledged, ` +
          `WAL ${walBytes} B at the kill, ${rows.length} rows after, ${unacknowledged.length} committed unacknowledged`,
      );
    }
    console.log(`[torn-write storage] ${rounds.join('; ')}`);
  });
});
