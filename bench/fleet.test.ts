import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startWorker } from './fleet.js';

/** A worker thread standing in for an executor's: it says it is ready, then does what `then` says. */
function standIn(then: 'exit' | 'throw' | 'stay' | 'exit-before-ready') {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const then = ${JSON.stringify(then)};
    if (then === 'exit-before-ready') process.exit(4);
    parentPort.postMessage({ type: 'ready', address: 'http://127.0.0.1:1' });
    if (then === 'exit') setTimeout(() => process.exit(3), 20);
    else if (then === 'throw') setTimeout(() => { throw new Error('boom'); }, 20);
    else parentPort.on('message', () => { parentPort.postMessage({ type: 'stopped' }); });
  `;
  return () => new Worker(code, { eval: true });
}

const options = (lost: string[]) => ({
  adminUrl: 'http://127.0.0.1:1',
  accessToken: 'unused',
  logRoot: '/nonexistent',
  onRun: () => undefined,
  onLost: (message: string) => lost.push(message),
});

describe('startWorker', () => {
  it('says so when an executor’s worker exits during the run', async () => {
    const lost: string[] = [];
    const worker = startWorker('app-0', options(lost), standIn('exit'));
    expect(await worker.ready).toMatchObject({ address: 'http://127.0.0.1:1' });
    await expect.poll(() => lost, { timeout: 5_000 }).toEqual(["executor app-0's worker exited (3)"]);
    await worker.stop(); // already gone: returns at once
  });

  it('says so once when an executor’s worker throws (it fails, then exits)', async () => {
    const lost: string[] = [];
    const worker = startWorker('app-3', options(lost), standIn('throw'));
    await worker.ready;
    await expect.poll(() => lost, { timeout: 5_000 }).toEqual(["executor app-3's worker failed: boom"]);
    await new Promise((r) => setTimeout(r, 100)); // its exit comes after the error
    expect(lost).toHaveLength(1);
    await worker.stop();
  });

  it('says nothing of a worker that its stop ended', async () => {
    const lost: string[] = [];
    const worker = startWorker('app-1', options(lost), standIn('stay'));
    await worker.ready;
    await worker.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(lost).toEqual([]);
  });

  it('fails the start of a worker that exits before it is ready, rather than calling it lost', async () => {
    const lost: string[] = [];
    const worker = startWorker('app-2', options(lost), standIn('exit-before-ready'));
    await expect(worker.ready).rejects.toThrow("executor app-2's worker exited (4)");
    expect(lost).toEqual([]);
  });
});
