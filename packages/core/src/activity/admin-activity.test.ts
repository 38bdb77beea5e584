import { FakeClock, makeRun } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import type { Page } from '../jobs/job-store.js';
import { HANDLE_CODE, type Run, TRIGGER_CODE } from '../runs/run.js';
import type { RunQuery } from '../runs/run-store.js';
import { activityFrame } from './activity.js';
import {
  ACTIVITY_MAX_RUNS,
  ACTIVITY_READ_BUDGET_MS,
  type AdminActivityDeps,
  activity,
} from './admin-activity.js';

const NOW = Date.parse('2030-01-01T10:17:30Z');
const MINUTE = 60_000;

/**
 * The runs store as the runs list reads it: runs by trigger time within [from, to], of one app when
 * asked, newest first, `limit` a page, the cursor an offset.
 */
class FakeRuns {
  readonly queries: RunQuery[] = [];
  readonly clock = new FakeClock(NOW);
  /** How long each list call takes on the fake clock. */
  readMs = 0;
  constructor(private readonly runs: Run[]) {}

  deps(): AdminActivityDeps {
    return {
      clock: this.clock,
      runs: {
        list: async (query: RunQuery): Promise<Page<Run>> => {
          this.queries.push(query);
          this.clock.advance(this.readMs);
          const matching = this.runs
            .filter(
              (r) =>
                r.triggerTime >= (query.from ?? 0) &&
                r.triggerTime <= (query.to ?? Number.MAX_SAFE_INTEGER) &&
                (query.appName === undefined || r.appName === query.appName),
            )
            .sort((a, b) => b.triggerTime - a.triggerTime);
          const start = Number(query.cursor ?? 0);
          const end = start + query.limit;
          return {
            items: matching.slice(start, end),
            ...(end < matching.length ? { nextCursor: String(end) } : {}),
          };
        },
      },
    };
  }
}

let serial = 0;
function run(scheduledTime: number, status: 'success' | 'fail' | 'running', fields: Partial<Run> = {}): Run {
  const handleCode = { success: HANDLE_CODE.success, fail: HANDLE_CODE.fail, running: 0 }[status];
  return makeRun({
    logId: ++serial,
    appName: 'a',
    scheduledTime,
    triggerTime: scheduledTime - 250,
    dispatchedAt: scheduledTime + 4,
    triggerCode: TRIGGER_CODE.success,
    handleCode,
    handleMsg: status === 'fail' ? 'boom' : status === 'success' ? 'ok' : '',
    handleTime: status === 'running' ? 0 : scheduledTime + 1_000,
    ...fields,
  });
}

const total = (a: { buckets: readonly { success: number; fail: number; running: number }[] }) =>
  a.buckets.reduce((n, b) => n + b.success + b.fail + b.running, 0);

describe('activity', () => {
  const frame = activityFrame('1h', NOW);

  it('answers the last hour by default, its runs per minute of their scheduled time', async () => {
    const runs = [
      run(frame.from + 1_000, 'success'),
      run(frame.from + 2_000, 'fail'),
      run(NOW - 5_000, 'running'),
      // Claimed before the window's start, due in it: counted.
      run(frame.from, 'success', { triggerTime: frame.from - 250 }),
      // Due before the window, claimed late inside it: not counted.
      run(frame.from - 30_000, 'fail', { triggerTime: frame.from + 5_000 }),
    ];
    const fake = new FakeRuns(runs);
    const result = await activity(fake.deps(), {});
    expect(result).toMatchObject({
      window: '1h',
      bucketMs: MINUTE,
      from: frame.from,
      to: frame.to,
      inProgress: 1,
      sampled: 4,
      truncated: false,
    });
    expect(result.buckets).toHaveLength(60);
    expect(result.buckets[0]).toMatchObject({
      start: frame.from,
      success: 2,
      fail: 1,
      running: 0,
      latenessP50Ms: 4,
    });
    expect(result.buckets[59]).toMatchObject({ running: 1 });
    expect(result.lastFailures.map((r) => r.logId)).toEqual([runs[1]?.logId]);
    // Read by trigger time from a little before the window up to now.
    expect(fake.queries[0]).toMatchObject({ to: NOW });
    expect(fake.queries[0]?.from).toBeLessThan(frame.from);
    expect(fake.queries[0]?.from).toBeGreaterThanOrEqual(frame.from - MINUTE);
  });

  it('reads 6 and 24 hours in 5 and 15 minute buckets', async () => {
    const fake = new FakeRuns([run(NOW - 5 * 3_600_000, 'success'), run(NOW - 20 * 3_600_000, 'success')]);
    const six = await activity(fake.deps(), { window: '6h' });
    expect(six).toMatchObject({ window: '6h', bucketMs: 300_000, sampled: 1 });
    expect(six.buckets).toHaveLength(72);
    const day = await activity(fake.deps(), { window: '24h' });
    expect(day).toMatchObject({ window: '24h', bucketMs: 900_000, sampled: 2 });
    expect(day.buckets).toHaveLength(96);
  });

  it('shows only the groups the caller sees: one group read by its name, several each by theirs', async () => {
    const runs = [
      run(NOW - MINUTE, 'fail', { appName: 'a' }),
      run(NOW - MINUTE, 'fail', { appName: 'b' }),
      run(NOW - MINUTE, 'running', { appName: 'c' }),
    ];
    const fake = new FakeRuns(runs);

    const onlyA = await activity(fake.deps(), {}, new Set(['a']));
    expect(fake.queries.at(-1)?.appName).toBe('a');
    expect(onlyA).toMatchObject({ sampled: 1, inProgress: 0 });
    expect(onlyA.lastFailures.map((r) => r.appName)).toEqual(['a']);

    const before = fake.queries.length;
    const aAndC = await activity(fake.deps(), {}, new Set(['a', 'c']));
    expect(fake.queries.slice(before).map((q) => q.appName)).toEqual(['a', 'c']);
    expect(aAndC).toMatchObject({ sampled: 2, inProgress: 1 });
    expect(aAndC.lastFailures.map((r) => r.appName)).toEqual(['a']);

    const asked = await activity(fake.deps(), { appName: 'c' }, new Set(['a', 'c']));
    expect(fake.queries.at(-1)?.appName).toBe('c');
    expect(asked).toMatchObject({ sampled: 1, inProgress: 1, lastFailures: [] });

    // A group the caller does not see reads as empty, without a read.
    const reads = fake.queries.length;
    const hidden = await activity(fake.deps(), { appName: 'b' }, new Set(['a']));
    expect(fake.queries).toHaveLength(reads);
    expect(hidden).toMatchObject({ sampled: 0, inProgress: 0, lastFailures: [], truncated: false });
    expect(total(hidden)).toBe(0);
    expect(await activity(fake.deps(), {}, new Set())).toMatchObject({ sampled: 0 });
    expect(fake.queries).toHaveLength(reads);

    // Every group seen: all runs, one read.
    const allReads = fake.queries.length;
    const all = await activity(fake.deps(), {});
    expect(fake.queries.slice(allReads).map((q) => q.appName)).toEqual([undefined]);
    expect(all).toMatchObject({ sampled: 3, inProgress: 1 });
    expect(all.lastFailures).toHaveLength(2);
  });

  it(`reads at most ${ACTIVITY_MAX_RUNS} runs, newest first, and says truncated beyond them`, async () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => run(NOW - 1_000 - Math.floor(i / 2), 'success'));
    const exactly = await activity(new FakeRuns(many(ACTIVITY_MAX_RUNS)).deps(), {});
    expect(exactly).toMatchObject({ sampled: ACTIVITY_MAX_RUNS, truncated: false });
    expect(total(exactly)).toBe(ACTIVITY_MAX_RUNS);

    // The 7 oldest runs failed: they are the ones left unread.
    const runs = [
      ...many(ACTIVITY_MAX_RUNS),
      ...Array.from({ length: 7 }, (_, i) => run(NOW - 10 * MINUTE - i, 'fail')),
    ];
    const over = await activity(new FakeRuns(runs).deps(), {});
    expect(over).toMatchObject({ sampled: ACTIVITY_MAX_RUNS, truncated: true, lastFailures: [] });
    expect(total(over)).toBe(ACTIVITY_MAX_RUNS);
    expect(over.buckets.reduce((n, b) => n + b.fail, 0)).toBe(0);
  });

  it('answers what it read once its read budget ran out, truncated', async () => {
    const runs = Array.from({ length: 1_200 }, (_, i) => run(NOW - 1_000 - i, 'success'));
    const fake = new FakeRuns(runs);
    fake.readMs = ACTIVITY_READ_BUDGET_MS / 2;
    const result = await activity(fake.deps(), {});
    expect(fake.queries).toHaveLength(2);
    expect(result).toMatchObject({ sampled: 1_000, truncated: true });
  });

  describe('a caller who sees several groups (not one, not all) of a busy deployment', () => {
    // The caller's group "a": three runs 50 minutes ago. Group "b", which the caller does not see:
    // 20,000 runs in the last 40 minutes. Read all runs and filtered, b's runs would decide how long
    // the read takes, when the budget runs out, and whether the caller's own runs are reached at all.
    const mine = [1, 2, 3].map((i) => run(NOW - 50 * MINUTE + i * 1_000, 'success'));
    const theirs = Array.from({ length: 20_000 }, (_, i) =>
      run(NOW - 40 * MINUTE + i * 100, 'success', { appName: 'b' }),
    );

    it('counts the caller’s own runs whatever other groups do, and says nothing about those groups', async () => {
      const fake = new FakeRuns([...mine, ...theirs]);
      fake.readMs = 300;
      const answer = await activity(fake.deps(), {}, new Set(['a', 'c']));
      expect({ sampled: answer.sampled, truncated: answer.truncated }).toEqual({
        sampled: 3,
        truncated: false,
      });
    });

    it('reads only the groups the caller sees, each by its name, not every group’s runs', async () => {
      const fake = new FakeRuns([...mine, ...theirs]);
      const answer = await activity(fake.deps(), {}, new Set(['a', 'c']));
      expect(answer.sampled).toBe(3);
      expect(fake.queries.map((q) => q.appName)).toEqual(['a', 'c']);
    });

    it('a caller who sees one group is narrowed to it alike', async () => {
      const fake = new FakeRuns([...mine, ...theirs]);
      fake.readMs = 300;
      const answer = await activity(fake.deps(), {}, new Set(['a']));
      expect({ sampled: answer.sampled, truncated: answer.truncated }).toEqual({
        sampled: 3,
        truncated: false,
      });
      expect(fake.queries.map((q) => q.appName)).toEqual(['a']);
    });

    it(`merges the groups newest first: the cap of ${ACTIVITY_MAX_RUNS} leaves out the oldest of them all`, async () => {
      // 3,000 runs of each of a and c, interleaved in time; the 1,000 oldest of the 6,000 are cut.
      const both = Array.from({ length: 6_000 }, (_, i) =>
        run(NOW - 1_000 - i * 500, i % 5 === 4 ? 'fail' : 'success', { appName: i % 2 === 0 ? 'a' : 'c' }),
      );
      const fake = new FakeRuns([...both, ...theirs]);
      const answer = await activity(fake.deps(), {}, new Set(['a', 'c']));
      expect(answer).toMatchObject({ sampled: ACTIVITY_MAX_RUNS, truncated: true });
      expect(fake.queries.every((q) => q.appName === 'a' || q.appName === 'c')).toBe(true);
      const kept = both.slice(0, ACTIVITY_MAX_RUNS);
      const counted = (from: number, to: number) =>
        kept.filter((r) => r.scheduledTime >= from && r.scheduledTime < to).length;
      for (const bucket of answer.buckets) {
        expect(bucket.success + bucket.fail, new Date(bucket.start).toISOString()).toBe(
          counted(bucket.start, bucket.start + MINUTE),
        );
      }
      expect(answer.lastFailures.map((r) => r.logId)).toEqual(
        kept
          .filter((r) => r.handleCode === HANDLE_CODE.fail)
          .slice(0, 10)
          .map((r) => r.logId),
      );
    });

    it('stops at the read budget with what it merged, newest first, truncated', async () => {
      // Each group has 1,200 runs: three pages each; the second round of reads ends the budget.
      const both = Array.from({ length: 2_400 }, (_, i) =>
        run(NOW - 1_000 - i * 100, 'success', { appName: i % 2 === 0 ? 'a' : 'c' }),
      );
      const fake = new FakeRuns([...both, ...theirs]);
      fake.readMs = ACTIVITY_READ_BUDGET_MS / 4;
      const answer = await activity(fake.deps(), {}, new Set(['a', 'c']));
      expect(fake.queries.map((q) => q.appName)).toEqual(['a', 'c', 'a', 'c']);
      // Read: the 1,000 newest of each. The merge stops at a's unread runs: c's 1,000th (the 2,000th
      // newest) is older than a's next, unread run, so it is left out with it.
      expect(answer).toMatchObject({ sampled: 1_999, truncated: true });
      expect(total(answer)).toBe(1_999);
    });
  });

  it('refuses a window it does not know, naming window', async () => {
    const fake = new FakeRuns([]);
    const err = await activity(fake.deps(), { window: '2h' as never }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'window' });
    expect(fake.queries).toEqual([]);
  });
});
