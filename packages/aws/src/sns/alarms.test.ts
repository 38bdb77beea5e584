import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@tickring/core/common';
import type { Alarm } from '@tickring/core/runs';
import { makeJob, makeRun } from '@tickring/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AlarmChannel,
  alarmPayload,
  alarmSubject,
  MultiChannelAlarmPublisher,
  webhookChannel,
} from './alarms.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function webhookServer(status: number, delayMs = 0): Promise<{ url: string; bodies: unknown[] }> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      setTimeout(() => {
        res.statusCode = status;
        res.end();
      }, delayMs);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}

function alarm(alarmWebhook: string): Alarm {
  return {
    job: makeJob({ id: 3, alarmWebhook, alarmEmail: 'ops@example.com' }),
    run: makeRun({ logId: 9, jobId: 3, handleCode: 500, handleMsg: 'boom', handleTime: 1_700_000_001_000 }),
    summary: 'Job 3 failed',
  };
}

describe("a closed alert window's count on the job's own path", () => {
  it('carries the window (no run) and says the count in the subject', () => {
    const window: Alarm = {
      job: makeJob({ id: 3 }),
      summary: '4 runFailed alarms of job 3 (job 3) since 2030-01-01T10:02:00.000Z; the first: Job 3 failed',
      window: {
        alertId: '3#runFailed#1893492000000',
        count: 4,
        firstAt: Date.UTC(2030, 0, 1, 10, 2),
        lastAt: Date.UTC(2030, 0, 1, 10, 9),
        windowEnd: Date.UTC(2030, 0, 1, 10, 10),
      },
    };
    expect(alarmPayload(window)).toMatchObject({
      kind: 'runFailed',
      run: null,
      window: {
        alertId: '3#runFailed#1893492000000',
        count: 4,
        firstAt: '2030-01-01T10:02:00.000Z',
        lastAt: '2030-01-01T10:09:00.000Z',
        windowEnd: '2030-01-01T10:10:00.000Z',
      },
    });
    expect(alarmSubject(window)).toBe(
      'tickring alarm: job 3, 4 runFailed alarms since 2030-01-01T10:02:00.000Z',
    );
    expect(alarmPayload(alarm(''))).not.toHaveProperty('window');
  });
});

describe('webhookChannel', () => {
  it('POSTs the alarm as JSON and counts any 2xx as delivered', async () => {
    const hook = await webhookServer(204);
    const a = alarm(hook.url);
    expect(await webhookChannel().deliver(a, alarmPayload(a))).toBe(true);
    expect(hook.bodies).toEqual([
      expect.objectContaining({
        type: 'tickring.alarm',
        summary: 'Job 3 failed',
        job: { id: 3, name: 'job 3', appName: 'test-app', alarmEmail: 'ops@example.com' },
        run: expect.objectContaining({
          logId: 9,
          handleCode: 500,
          handleMsg: 'boom',
          handleTime: '2023-11-14T22:13:21.000Z',
        }),
      }),
    ]);
  });

  it('fails on a non-2xx answer and on a timeout', async () => {
    const refusing = await webhookServer(500);
    const a = alarm(refusing.url);
    await expect(webhookChannel().deliver(a, alarmPayload(a))).rejects.toThrow('HTTP 500');
    const slow = await webhookServer(200, 500);
    const b = alarm(slow.url);
    await expect(webhookChannel({ timeoutMs: 100 }).deliver(b, alarmPayload(b))).rejects.toThrow();
  });

  it('has nothing to do for a job without a webhook', async () => {
    const a = alarm('');
    expect(
      await webhookChannel({ fetch: () => Promise.reject(new Error('called')) }).deliver(a, alarmPayload(a)),
    ).toBe(true);
  });
});

describe('MultiChannelAlarmPublisher', () => {
  it('tries every channel and is delivered only when all took the alarm', async () => {
    const calls: string[] = [];
    const channel = (name: string, outcome: 'ok' | 'throw'): AlarmChannel => ({
      name,
      deliver: async () => {
        calls.push(name);
        if (outcome === 'throw') throw new Error(`${name} down`);
        return true;
      },
    });
    expect(
      await new MultiChannelAlarmPublisher([channel('a', 'ok'), channel('b', 'ok')], silentLogger).publish(
        alarm(''),
      ),
    ).toBe(true);
    expect(
      await new MultiChannelAlarmPublisher([channel('c', 'throw'), channel('d', 'ok')], silentLogger).publish(
        alarm(''),
      ),
    ).toBe(false);
    expect(calls).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('alarmSubject', () => {
  it('names the workflow a deadline or a schedule alarm is about, and a failed workflow run its run', () => {
    const base = alarm('');
    const workflow = { id: 4, name: 'nightly' };
    expect(alarmSubject({ ...base, kind: 'deadlineMissed', workflow })).toBe(
      'tickring alarm: workflow 4 missed its deadline',
    );
    expect(alarmSubject({ ...base, kind: 'fireUnexplained', workflow })).toBe(
      'tickring alarm: workflow 4 owed fires that did not happen',
    );
    expect(alarmSubject({ ...base, workflow: { ...workflow, runId: 'wr-1', failedNodes: ['a'] } })).toBe(
      'tickring alarm: workflow 4 failed (run wr-1)',
    );
    expect(alarmSubject({ ...base, kind: 'deadlineMissed' })).toBe(
      'tickring alarm: job 3 missed its deadline',
    );
    expect(alarmPayload({ ...base, kind: 'deadlineMissed', workflow }).workflow).toEqual(workflow);
  });
});
