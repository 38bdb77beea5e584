import { BYTES_PER_RUN_RECORD } from '@tickring/core/jobs';
import { firstPlannedLogId, type Run } from '@tickring/core/runs';
import { makeRun } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { toItem } from './items.js';

/**
 * DynamoDB's item size (developer guide, "Item sizes and formats"): each attribute's name in UTF-8
 * bytes plus its value: a string's UTF-8 bytes, a number about one byte per two significant
 * digits plus one, a boolean or null one byte, a list or map 3 bytes plus one per element plus the
 * elements (a map's names counted). Storage bills each item with 100 bytes of overhead more.
 */
function valueSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number')
    return Math.ceil(String(Math.abs(value)).replace(/[.-]|^0+|0+$/g, '').length / 2) + 1;
  if (typeof value === 'boolean' || value === null) return 1;
  if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + valueSize(v), 0);
  if (typeof value === 'object')
    return (
      3 +
      Object.entries(value as object).reduce((n, [k, v]) => n + 1 + Buffer.byteLength(k) + valueSize(v), 0)
    );
  return 0;
}
const itemSize = (item: object) =>
  Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name) + valueSize(value), 0);
const ITEM_OVERHEAD = 100;

describe('the bytes one run costs in DynamoDB (BYTES_PER_RUN_RECORD)', () => {
  it('is what a typical run measures with its fire record and dispatch entry, within a tenth', () => {
    const jobId = 1234;
    const t = Date.UTC(2030, 0, 10, 2);
    const logId = firstPlannedLogId(jobId) + 4711;
    // A cron job's scheduled run, as the dispatcher writes it, with a short result.
    const run: Run = {
      ...makeRun({ logId, jobId, appName: 'billing-app', jobName: 'Nightly invoice export' }),
      dedupKey: `${jobId}#${t}`,
      triggerType: 'CRON',
      scheduledTime: t,
      triggerTime: t - 250,
      dispatchedAt: t,
      executorHandler: 'invoiceExportHandler',
      executorAddress: 'http://10.0.3.17:9999/',
      childJobIds: [],
      triggerMsg: [
        'Trigger type: CRON',
        'Executor group: billing-app (AUTO)',
        'Address list: [http://10.0.3.17:9999/, http://10.0.3.18:9999/]',
        'Route strategy: ROUND',
        'Block strategy: SERIAL_EXECUTION',
        'Timeout: 600 s',
        'Retries left: 2',
        '>>>>>>>>>>> Trigger <<<<<<<<<<<',
        'address: http://10.0.3.17:9999/',
        'code: 200',
        'msg: ',
      ].join('\n'),
      handleCode: 200,
      handleMsg: 'exported 1532 invoices',
      handleTime: t + 41_000,
      retention: { days: 90 },
    };
    const item = toItem(run, `2030-01-10T01/${t * 1000 + 123}`, {
      expiresAt: Math.floor(t / 1000) + 90 * 86_400,
    });
    const runItem = itemSize(item) + ITEM_OVERHEAD;
    // The fire record (control table), one per fire.
    const fire =
      itemSize({
        pk: `fire#${run.dedupKey}`,
        logIds: [logId],
        claimToken: item.claimToken,
        expiresAt: item.expiresAt,
      }) + ITEM_OVERHEAD;
    // Its entry in the dispatch record's lists (logIds, apps, deadlines): the record's own key is shared by up to 50 runs.
    const entry = 3 * 1 + valueSize(logId) + valueSize(run.appName) + valueSize(t + 660_000);
    const measured = runItem + fire + entry;
    expect(Math.abs(measured - BYTES_PER_RUN_RECORD) / measured).toBeLessThan(0.1);
  });
});
