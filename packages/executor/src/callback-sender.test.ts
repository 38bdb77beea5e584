import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandleCallbackParam } from '@tickring/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../test-support/wait-for.js';
import type { AdminCallResult } from './admin-client.js';
import { CallbackSender } from './callback-sender.js';
import { silentLogger } from './logger.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-callback-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An in-memory admin: records accepted batches; `up` switches acceptance. */
function memoryAdmin() {
  const batches: HandleCallbackParam[][] = [];
  const admin = {
    up: true,
    batches,
    async call(_name: string, body: unknown): Promise<AdminCallResult> {
      if (!admin.up) return { ok: false, detail: 'down' };
      batches.push(body as HandleCallbackParam[]);
      return { ok: true, address: 'memory', detail: '' };
    },
  };
  return admin;
}

const cb = (logId: number): HandleCallbackParam => ({ logId, logDateTim: 1, handleCode: 200 });
const spoolFiles = async () => (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.json'));

describe('CallbackSender', () => {
  it('sends results finished in the same tick as one batch', async () => {
    const admin = memoryAdmin();
    const sender = new CallbackSender({
      admin,
      spoolDir: dir,
      retryIntervalMs: 60_000,
      logger: silentLogger,
    });
    sender.push(cb(1));
    sender.push(cb(2));
    sender.push(cb(3));
    await waitFor(() => admin.batches.length > 0);
    await sender.flush();
    expect(admin.batches).toEqual([[cb(1), cb(2), cb(3)]]);
  });

  it('holds results for lingerMs so those finished close together share one POST', async () => {
    const admin = memoryAdmin();
    const sender = new CallbackSender({
      admin,
      spoolDir: dir,
      retryIntervalMs: 60_000,
      logger: silentLogger,
      lingerMs: 200,
    });
    sender.push(cb(1));
    await new Promise((r) => setTimeout(r, 50));
    sender.push(cb(2));
    expect(admin.batches).toEqual([]);
    await waitFor(() => admin.batches.length > 0);
    await sender.flush();
    expect(admin.batches).toEqual([[cb(1), cb(2)]]);
  });

  it('sends at once when a batch is full, without waiting out the linger', async () => {
    const admin = memoryAdmin();
    const sender = new CallbackSender({
      admin,
      spoolDir: dir,
      retryIntervalMs: 60_000,
      logger: silentLogger,
      lingerMs: 60_000,
      maxBatch: 2,
    });
    sender.push(cb(1));
    sender.push(cb(2));
    await waitFor(() => admin.batches.length > 0);
    expect(admin.batches).toEqual([[cb(1), cb(2)]]);
    sender.push(cb(3));
    await sender.flush();
    expect(admin.batches).toEqual([[cb(1), cb(2)], [cb(3)]]);
  });

  it('spools a batch no admin accepts as JSON and delivers it once an admin answers again', async () => {
    const admin = memoryAdmin();
    admin.up = false;
    const sender = new CallbackSender({ admin, spoolDir: dir, retryIntervalMs: 50, logger: silentLogger });
    sender.start();
    sender.push(cb(7));
    await sender.flush();
    const [file] = await spoolFiles();
    expect(file).toMatch(/^tickring-callback-\d+-[0-9a-f-]+\.json$/);
    expect(JSON.parse(await readFile(join(dir, file ?? ''), 'utf8'))).toEqual({
      version: 1,
      callbacks: [cb(7)],
    });
    admin.up = true;
    await waitFor(() => admin.batches.length === 1, { message: 'spool retry' });
    expect(admin.batches[0]).toEqual([cb(7)]);
    await waitFor(async () => (await spoolFiles()).length === 0, { message: 'spool file removed' });
    await sender.stop();
  });

  it('delivers what an earlier process spooled as soon as it starts', async () => {
    await writeFile(
      join(dir, 'tickring-callback-1-a.json'),
      JSON.stringify({ version: 1, callbacks: [cb(11)] }),
    );
    await writeFile(
      join(dir, 'tickring-callback-2-b.json'),
      JSON.stringify({ version: 1, callbacks: [cb(12)] }),
    );
    await writeFile(join(dir, 'tickring-callback-3-c.json'), '{ not json');
    const admin = memoryAdmin();
    const sender = new CallbackSender({
      admin,
      spoolDir: dir,
      retryIntervalMs: 60_000,
      logger: silentLogger,
    });
    sender.start();
    await waitFor(() => admin.batches.length === 2);
    expect(admin.batches).toEqual([[cb(11)], [cb(12)]]);
    await sender.stop();
    expect((await readdir(dir)).sort()).toEqual(['tickring-callback-3-c.json.corrupt']);
  });

  it('spools what is pending on stop when no admin answers', async () => {
    const admin = memoryAdmin();
    admin.up = false;
    const sender = new CallbackSender({
      admin,
      spoolDir: dir,
      retryIntervalMs: 60_000,
      logger: silentLogger,
    });
    sender.start();
    sender.push(cb(21));
    await sender.stop();
    expect(await spoolFiles()).toHaveLength(1);
  });
});
