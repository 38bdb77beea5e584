import { FakeClock, makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../common/logger.js';
import { firstPlannedLogId } from '../runs/run.js';
import { executorAuthorizer } from './executor-auth.js';
import { GROUP_TOKEN_CACHE_MS } from './group-access-tokens.js';

function fixture() {
  const reads: number[][] = [];
  const clock = new FakeClock(1_000_000);
  const authorize = executorAuthorizer({
    tokenFor: async (appName) => (appName === 'own-app' ? 'own-token' : 'global-token'),
    globalToken: async () => 'global-token',
    jobs: {
      getMany: async (ids) => {
        reads.push([...ids]);
        await new Promise((r) => setTimeout(r, 5));
        return ids.map((id) => makeJob({ id, appName: id === 1 ? 'own-app' : 'app' }));
      },
    },
    clock,
    logger: silentLogger,
  });
  return { authorize, reads, clock };
}

describe('executorAuthorizer', () => {
  it("reads each reported job's group once for a burst of callbacks, and again after the cache time", async () => {
    const { authorize, reads, clock } = fixture();
    const scope = { kind: 'callback', logIds: [firstPlannedLogId(1)] } as const;
    const verdicts = await Promise.all(
      Array.from({ length: 50 }, () => authorize({ token: 'own-token', appName: undefined }, scope)),
    );
    expect(verdicts.every((v) => v === undefined)).toBe(true);
    expect(reads).toEqual([[1]]);
    clock.advance(GROUP_TOKEN_CACHE_MS);
    expect(await authorize({ token: 'global-token', appName: undefined }, scope)).toEqual({
      msg: 'The access token is wrong.',
      reason: 'wrong-token',
    });
    expect(reads).toEqual([[1], [1]]);
  });
});
