import { describe, expect, it } from 'vitest';
import { BackgroundHealth, FAILURES_BEFORE_PROBLEM, type Failing } from './health.js';

describe('what /health says of the background work', () => {
  it('reports a check only once it has failed several times in a row, and forgets it when it works again', () => {
    const health = new BackgroundHealth();
    for (let i = 1; i < FAILURES_BEFORE_PROBLEM; i++) health.failed('tick', 'boom', 1_000 * i);
    expect(health.problems()).toEqual([]);
    health.failed('tick', 'still boom', 9_000);
    expect(health.problems()).toEqual([
      {
        check: 'tick',
        consecutiveFailures: FAILURES_BEFORE_PROBLEM,
        since: new Date(1_000).toISOString(),
        lastError: 'still boom',
      },
    ]);
    health.succeeded('tick');
    expect(health.problems()).toEqual([]);
  });

  it('asks a watched condition each time, and reports it from its first failure for as long as it answers one', () => {
    const health = new BackgroundHealth();
    let now: Failing | undefined;
    health.watch('database writes', () => now);
    expect(health.problems()).toEqual([]);
    now = { since: 5_000, consecutiveFailures: 1, lastError: 'database or disk is full' };
    expect(health.problems()).toEqual([
      {
        check: 'database writes',
        consecutiveFailures: 1,
        since: new Date(5_000).toISOString(),
        lastError: 'database or disk is full',
      },
    ]);
    now = undefined;
    expect(health.problems()).toEqual([]);
  });

  it('follows each monitors sweep by name from the invocation’s failedSweeps', () => {
    const health = new BackgroundHealth();
    for (let i = 0; i < FAILURES_BEFORE_PROBLEM; i++) health.monitorsResult({ failedSweeps: ['lostRuns'] });
    expect(health.problems().map((p) => p.check)).toEqual(['monitors sweep lostRuns']);
    health.monitorsResult({ failedSweeps: [] });
    expect(health.problems()).toEqual([]);
    health.monitorsResult(undefined);
    expect(health.problems()).toEqual([]);
  });
});
