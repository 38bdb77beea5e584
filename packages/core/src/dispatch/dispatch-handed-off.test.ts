import { memoryDispatchDeps } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { RingBatchDeps } from './dispatch-batch.js';
import { dispatchHandedOff } from './dispatch-handed-off.js';
import { HANDED_OFF_SOURCE, handedOffFires, isHandedOffFires } from './fire-hand-off.js';
import { JobTurns } from './job-turns.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import type { FireMessage } from './trigger.js';

function setup() {
  const env = memoryDispatchDeps();
  const deps: RingBatchDeps = {
    ...env.deps,
    settings: DISPATCH_DEFAULTS,
    jobTurns: new JobTurns(),
    flushReports: async () => {},
    flushMetrics: () => {},
  };
  return { env, deps };
}

const manual = (now: number, key: string): FireMessage => ({
  jobId: 1,
  scheduledTime: now,
  triggerType: 'MANUAL',
  dedupKey: key,
});

const farDeadline = (now: number) => now + 60_000;

describe('dispatchHandedOff', () => {
  it('dispatches each handed-off fire as a ring batch would, and puts nothing on the ring', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();

    const result = await dispatchHandedOff(
      deps,
      handedOffFires([manual(now, 'm#1'), manual(now, 'm#2')]),
      farDeadline(now),
    );

    expect(result).toEqual({ fires: 2, requeued: 0 });
    expect(
      env.runs
        .all()
        .map((run) => run.dedupKey)
        .sort(),
    ).toEqual(['m#1', 'm#2']);
    expect(env.transport.sent).toHaveLength(2);
    expect(env.ring.entries).toEqual([]);
  });

  it('puts the fires that met an infrastructure failure on the fast ring, as they were handed over', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();
    env.jobs.getMany = async () => {
      throw new Error('the job store is down');
    };
    env.jobs.get = env.jobs.getMany as never;
    const fires = [manual(now, 'm#1'), manual(now, 'm#2')];

    const result = await dispatchHandedOff(deps, handedOffFires(fires), farDeadline(now));

    expect(result).toEqual({ fires: 2, requeued: 2 });
    expect(env.ring.entries).toEqual(fires.map((message) => ({ message, delaySeconds: 0, lane: 'fast' })));
    expect(env.transport.sent).toEqual([]);
  });

  it('drops an event whose fires are not an array, and a malformed fire alone, logging each', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();

    const none = await dispatchHandedOff(
      deps,
      { source: HANDED_OFF_SOURCE, fires: 'x' } as never,
      farDeadline(now),
    );
    const some = await dispatchHandedOff(
      deps,
      handedOffFires([{ jobId: 'one' } as never, manual(now, 'm#1')]),
      farDeadline(now),
    );

    expect(none).toEqual({ fires: 0, requeued: 0 });
    expect(some).toEqual({ fires: 2, requeued: 0 });
    expect(env.runs.all().map((run) => run.dedupKey)).toEqual(['m#1']);
    expect(env.logger.lines.filter((e) => e.level === 'error').map((e) => e.message)).toEqual([
      'handed-off event dropped',
      'malformed fire dropped',
    ]);
  });

  it('tells a handed-off event from an SQS event', () => {
    expect(isHandedOffFires(handedOffFires([]))).toBe(true);
    expect(isHandedOffFires({ Records: [] })).toBe(false);
    expect(isHandedOffFires(null)).toBe(false);
  });
});
