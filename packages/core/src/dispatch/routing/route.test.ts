import { describe, expect, it, vi } from 'vitest';
import { PermanentError, ValidationError } from '../../common/errors.js';
import { type ProbeResult, type RouteInput, type RouteResult, route } from './route.js';
import { ROUTE_STATE_TTL_MS, type RouteState } from './route-state.js';
import { parseRouteStrategy, ROUTE_STRATEGIES } from './route-strategy.js';

const A = 'http://10.0.0.1:9999/';
const B = 'http://10.0.0.2:9999/';
const C = 'http://10.0.0.3:9999/';
const ABC = [A, B, C];
const NOW = Date.UTC(2026, 0, 1);

/** A random source that returns the given values in turn (and fails loudly when it runs out). */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => {
    const value = values[i++];
    if (value === undefined) throw new Error('random() called more often than expected');
    return value;
  };
}

function input(overrides: Partial<RouteInput> & Pick<RouteInput, 'strategy'>): RouteInput {
  return { jobId: 7, addresses: ABC, nowMs: NOW, random: sequence(), ...overrides };
}

function address(result: RouteResult): string {
  if (result.kind !== 'ONE') throw new Error(`expected ONE, got ${result.kind}`);
  return result.address;
}

/** Routes `times` triggers in a row, feeding each call the state the previous one returned. */
async function routeRepeatedly(
  base: RouteInput,
  times: number,
  stepMs = 1000,
): Promise<{ picks: string[]; state: RouteState | undefined }> {
  const picks: string[] = [];
  let state = base.state;
  for (let i = 0; i < times; i++) {
    const result = await route({ ...base, state, nowMs: base.nowMs + i * stepMs });
    picks.push(address(result));
    state = result.kind === 'ONE' ? result.state : undefined;
  }
  return { picks, state };
}

describe('route: strategy names', () => {
  it('lists the ten XXL-JOB strategies in enum order', () => {
    expect(ROUTE_STRATEGIES).toEqual([
      'FIRST',
      'LAST',
      'ROUND',
      'RANDOM',
      'CONSISTENT_HASH',
      'LEAST_FREQUENTLY_USED',
      'LEAST_RECENTLY_USED',
      'FAILOVER',
      'BUSYOVER',
      'SHARDING_BROADCAST',
    ]);
  });

  it('parses a known strategy name and rejects anything else with a ValidationError naming the field', () => {
    expect(parseRouteStrategy('ROUND')).toBe('ROUND');
    expect(() => parseRouteStrategy('round')).toThrow(ValidationError);
    expect(() => parseRouteStrategy(undefined)).toThrow(/executorRouteStrategy must be one of FIRST, LAST/);
  });

  it('rejects an unknown strategy and a jobId that is not a 32-bit integer', async () => {
    await expect(route(input({ strategy: 'NEAREST' as never }))).rejects.toThrow(ValidationError);
    await expect(route(input({ strategy: 'FIRST', jobId: 1.5 }))).rejects.toThrow(ValidationError);
    await expect(route(input({ strategy: 'FIRST', jobId: 2 ** 31 }))).rejects.toThrow(/jobId/);
  });
});

describe('route: empty address list', () => {
  it.each(ROUTE_STRATEGIES)('%s returns NONE "no online executor" instead of throwing', async (strategy) => {
    const probe = vi.fn();
    const result = await route(input({ strategy, addresses: [], probe }));
    expect(result).toEqual({ kind: 'NONE', cause: 'NO_ADDRESS', reason: 'no online executor', trail: '' });
    expect(probe).not.toHaveBeenCalled();
  });
});

describe('route: FIRST and LAST', () => {
  it('FIRST picks the first address of the list', async () => {
    expect(await route(input({ strategy: 'FIRST' }))).toEqual({ kind: 'ONE', address: A, trail: '' });
  });

  it('LAST picks the last address of the list', async () => {
    expect(await route(input({ strategy: 'LAST' }))).toEqual({ kind: 'ONE', address: C, trail: '' });
  });

  it('FIRST and LAST pick the only address of a one-address list', async () => {
    expect(address(await route(input({ strategy: 'FIRST', addresses: [B] })))).toBe(B);
    expect(address(await route(input({ strategy: 'LAST', addresses: [B] })))).toBe(B);
  });
});

describe('route: RANDOM', () => {
  it('picks addresses[floor(random() * n)] from the injected random source', async () => {
    const pick = async (r: number) => address(await route(input({ strategy: 'RANDOM', random: () => r })));
    expect(await pick(0)).toBe(A);
    expect(await pick(0.34)).toBe(B);
    expect(await pick(0.6666)).toBe(B);
    expect(await pick(0.67)).toBe(C);
    expect(await pick(0.999999)).toBe(C);
  });

  it('returns no state to store', async () => {
    expect(await route(input({ strategy: 'RANDOM', random: () => 0.5 }))).not.toHaveProperty('state');
  });

  it('refuses a random source that leaves [0, 1) with a PermanentError', async () => {
    await expect(route(input({ strategy: 'RANDOM', random: () => 1 }))).rejects.toThrow(PermanentError);
    await expect(route(input({ strategy: 'RANDOM', random: () => Number.NaN }))).rejects.toThrow(
      PermanentError,
    );
  });
});

describe('route: ROUND', () => {
  it('starts at floor(random() * 100) and stores the counter with a reset time 24 h ahead', async () => {
    // 0.42 -> count 42 -> 42 % 3 = 0
    const result = await route(input({ strategy: 'ROUND', random: sequence(0.42) }));
    expect(result).toEqual({
      kind: 'ONE',
      address: A,
      trail: '',
      state: { kind: 'ROUND', count: 42, resetAt: NOW + ROUTE_STATE_TTL_MS },
    });
  });

  it('starts at a random offset, so jobs do not all begin on the first address', async () => {
    const pick = async (r: number) => address(await route(input({ strategy: 'ROUND', random: () => r })));
    expect([await pick(0), await pick(0.01), await pick(0.02)]).toEqual([A, B, C]);
  });

  it('rotates one address per trigger when the stored state is passed back', async () => {
    // seed 0.05 -> count 5 -> index 2
    const { picks, state } = await routeRepeatedly(input({ strategy: 'ROUND', random: sequence(0.05) }), 7);
    expect(picks).toEqual([C, A, B, C, A, B, C]);
    expect(state).toEqual({ kind: 'ROUND', count: 11, resetAt: NOW + ROUTE_STATE_TTL_MS });
  });

  it('keeps counting across a change of the address list', async () => {
    const state: RouteState = { kind: 'ROUND', count: 10, resetAt: NOW + 1000 };
    const result = await route(input({ strategy: 'ROUND', addresses: [A, B], state }));
    // 11 % 2 = 1
    expect(result).toMatchObject({ address: B, state: { count: 11, resetAt: NOW + 1000 } });
  });

  it('still uses the counter at exactly its reset time and reseeds it once that has passed', async () => {
    const state: RouteState = { kind: 'ROUND', count: 10, resetAt: NOW };
    const at = await route(input({ strategy: 'ROUND', state, nowMs: NOW }));
    expect(at).toMatchObject({ state: { count: 11, resetAt: NOW } });

    const after = await route(input({ strategy: 'ROUND', state, nowMs: NOW + 1, random: sequence(0.5) }));
    expect(after).toMatchObject({ state: { count: 50, resetAt: NOW + 1 + ROUTE_STATE_TTL_MS } });
  });

  it('reseeds the counter after it exceeds 1,000,000, keeping the reset time', async () => {
    const resetAt = NOW + 5000;
    const atLimit = await route(
      input({ strategy: 'ROUND', state: { kind: 'ROUND', count: 1_000_000, resetAt } }),
    );
    expect(atLimit).toMatchObject({ state: { count: 1_000_001, resetAt } });

    const over = await route(
      input({
        strategy: 'ROUND',
        state: { kind: 'ROUND', count: 1_000_001, resetAt },
        random: sequence(0.07),
      }),
    );
    expect(over).toMatchObject({ address: B, state: { kind: 'ROUND', count: 7, resetAt } });
  });

  it('ignores state stored for another strategy and starts afresh', async () => {
    const state: RouteState = { kind: 'LRU', order: [C, B, A], resetAt: NOW + 1000 };
    const result = await route(input({ strategy: 'ROUND', state, random: sequence(0.99) }));
    expect(result).toMatchObject({ state: { kind: 'ROUND', count: 99, resetAt: NOW + ROUTE_STATE_TTL_MS } });
  });
});

describe('route: LEAST_FREQUENTLY_USED', () => {
  const resetAt = NOW + 1000;

  it('seeds new addresses with random(n), picks the least used one and increments it', async () => {
    // seeds: A = floor(0.9 * 3) = 2, B = floor(0.1 * 3) = 0, C = floor(0.5 * 3) = 1
    const result = await route(input({ strategy: 'LEAST_FREQUENTLY_USED', random: sequence(0.9, 0.1, 0.5) }));
    expect(result).toEqual({
      kind: 'ONE',
      address: B,
      trail: '',
      state: { kind: 'LFU', counts: { [A]: 2, [B]: 1, [C]: 1 }, resetAt: NOW + ROUTE_STATE_TTL_MS },
    });
  });

  it('picks the least used address from the stored counts without calling random', async () => {
    const state: RouteState = { kind: 'LFU', counts: { [A]: 5, [B]: 3, [C]: 4 }, resetAt };
    const result = await route(input({ strategy: 'LEAST_FREQUENTLY_USED', state }));
    expect(result).toMatchObject({ address: B, state: { counts: { [A]: 5, [B]: 4, [C]: 4 }, resetAt } });
  });

  it('breaks ties by the order of the address list', async () => {
    const state: RouteState = { kind: 'LFU', counts: { [C]: 1, [B]: 1, [A]: 2 }, resetAt };
    expect(address(await route(input({ strategy: 'LEAST_FREQUENTLY_USED', state })))).toBe(B);
  });

  it('spreads consecutive triggers evenly over the addresses', async () => {
    const { picks, state } = await routeRepeatedly(
      input({ strategy: 'LEAST_FREQUENTLY_USED', random: sequence(0, 0, 0) }),
      6,
    );
    expect(picks).toEqual([A, B, C, A, B, C]);
    expect(state).toMatchObject({ counts: { [A]: 2, [B]: 2, [C]: 2 } });
  });

  it('forgets addresses that left the list and seeds the ones that joined', async () => {
    const D = 'http://10.0.0.4:9999/';
    const state: RouteState = { kind: 'LFU', counts: { [A]: 9, [B]: 0, [C]: 9 }, resetAt };
    // B left; D joined and is seeded with floor(0.99 * 3) = 2
    const result = await route(
      input({ strategy: 'LEAST_FREQUENTLY_USED', addresses: [A, C, D], state, random: sequence(0.99) }),
    );
    expect(result).toEqual({
      kind: 'ONE',
      address: D,
      trail: '',
      state: { kind: 'LFU', counts: { [A]: 9, [C]: 9, [D]: 3 }, resetAt },
    });
  });

  it('reseeds an address whose count exceeds 1,000,000', async () => {
    const state: RouteState = { kind: 'LFU', counts: { [A]: 1_000_001, [B]: 1_000_000 }, resetAt };
    const result = await route(
      input({ strategy: 'LEAST_FREQUENTLY_USED', addresses: [A, B], state, random: sequence(0.5) }),
    );
    // A reseeded to floor(0.5 * 2) = 1, picked and incremented
    expect(result).toMatchObject({ address: A, state: { counts: { [A]: 2, [B]: 1_000_000 } } });
  });

  it('starts over once the 24 h reset time has passed', async () => {
    const state: RouteState = { kind: 'LFU', counts: { [A]: 0, [B]: 50, [C]: 50 }, resetAt };
    const result = await route(
      input({
        strategy: 'LEAST_FREQUENTLY_USED',
        state,
        nowMs: resetAt + 1,
        random: sequence(0.9, 0.9, 0),
      }),
    );
    expect(result).toMatchObject({
      address: C,
      state: { counts: { [A]: 2, [B]: 2, [C]: 1 }, resetAt: resetAt + 1 + ROUTE_STATE_TTL_MS },
    });
  });
});

describe('route: LEAST_RECENTLY_USED', () => {
  const resetAt = NOW + 1000;

  it('picks the least recently used address and moves it to the most recent end', async () => {
    const state: RouteState = { kind: 'LRU', order: [B, C, A], resetAt };
    const result = await route(input({ strategy: 'LEAST_RECENTLY_USED', state }));
    expect(result).toEqual({
      kind: 'ONE',
      address: B,
      trail: '',
      state: { kind: 'LRU', order: [C, A, B], resetAt },
    });
  });

  it('starts with the list order and cycles through every address', async () => {
    const { picks, state } = await routeRepeatedly(input({ strategy: 'LEAST_RECENTLY_USED' }), 5);
    expect(picks).toEqual([A, B, C, A, B]);
    expect(state).toEqual({ kind: 'LRU', order: [C, A, B], resetAt: NOW + ROUTE_STATE_TTL_MS });
  });

  it('appends addresses that joined at the end and drops the ones that left', async () => {
    const D = 'http://10.0.0.4:9999/';
    const state: RouteState = { kind: 'LRU', order: [B, A, C], resetAt };
    // B left: A is now the eldest; D joins behind C
    const result = await route(input({ strategy: 'LEAST_RECENTLY_USED', addresses: [A, C, D], state }));
    expect(result).toMatchObject({ address: A, state: { order: [C, D, A] } });
  });

  it('puts a newcomer behind the known addresses, so it waits its turn', async () => {
    const D = 'http://10.0.0.4:9999/';
    const state: RouteState = { kind: 'LRU', order: [C, A, B], resetAt };
    const { picks } = await routeRepeatedly(
      input({ strategy: 'LEAST_RECENTLY_USED', addresses: [D, A, B, C], state }),
      4,
      1,
    );
    expect(picks).toEqual([C, A, B, D]);
  });

  it('starts over from the list order once the 24 h reset time has passed', async () => {
    const state: RouteState = { kind: 'LRU', order: [C, B, A], resetAt };
    const result = await route(input({ strategy: 'LEAST_RECENTLY_USED', state, nowMs: resetAt + 1 }));
    expect(result).toMatchObject({
      address: A,
      state: { order: [B, C, A], resetAt: resetAt + 1 + ROUTE_STATE_TTL_MS },
    });
  });
});

describe('route: FAILOVER', () => {
  function beats(answers: Record<string, ProbeResult | Error>) {
    return vi.fn(async (addr: string, _jobId: number): Promise<ProbeResult> => {
      const answer = answers[addr];
      if (answer instanceof Error) throw answer;
      if (!answer) throw new Error(`unexpected probe of ${addr}`);
      return answer;
    });
  }

  it('skips an address whose beat fails and records every beat in the trail', async () => {
    const probe = beats({
      [A]: { ok: false, code: 500, msg: 'connect ECONNREFUSED 10.0.0.1:9999' },
      [B]: { ok: true, msg: '' },
    });
    const result = await route(input({ strategy: 'FAILOVER', probe }));
    expect(result).toEqual({
      kind: 'ONE',
      address: B,
      trail: [`beat ${A}: code=500 msg=connect ECONNREFUSED 10.0.0.1:9999`, `beat ${B}: code=200`].join('\n'),
    });
    expect(probe.mock.calls.map(([addr]) => addr)).toEqual([A, B]);
  });

  it('takes the first address without asking the rest when its beat succeeds', async () => {
    const probe = beats({ [A]: { ok: true, code: 200, msg: 'alive' } });
    expect(await route(input({ strategy: 'FAILOVER', probe }))).toEqual({
      kind: 'ONE',
      address: A,
      trail: `beat ${A}: code=200 msg=alive`,
    });
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('treats a probe that throws as a failed beat', async () => {
    const probe = beats({
      [A]: new Error('timeout after 3000 ms'),
      [B]: new Error('socket hang up'),
      [C]: { ok: true, msg: '' },
    });
    const result = await route(input({ strategy: 'FAILOVER', probe }));
    expect(result).toMatchObject({ address: C });
    expect(result.kind === 'ONE' && result.trail.split('\n')).toEqual([
      `beat ${A}: code=500 msg=timeout after 3000 ms`,
      `beat ${B}: code=500 msg=socket hang up`,
      `beat ${C}: code=200`,
    ]);
  });

  it('returns NONE with the whole trail when every beat fails', async () => {
    const probe = beats({
      [A]: { ok: false, msg: 'refused' },
      [B]: { ok: false, code: 502, msg: 'bad gateway' },
      [C]: new Error('timeout'),
    });
    expect(await route(input({ strategy: 'FAILOVER', probe }))).toEqual({
      kind: 'NONE',
      cause: 'ALL_PROBES_FAILED',
      reason: 'every executor failed the beat check',
      trail: [
        `beat ${A}: code=500 msg=refused`,
        `beat ${B}: code=502 msg=bad gateway`,
        `beat ${C}: code=500 msg=timeout`,
      ].join('\n'),
    });
  });

  it('needs a probe: without one it is a PermanentError', async () => {
    await expect(route(input({ strategy: 'FAILOVER' }))).rejects.toThrow(PermanentError);
  });
});

describe('route: BUSYOVER', () => {
  it('skips a busy executor and takes the first idle one, asking idleBeat with the job id', async () => {
    const probe = vi.fn(async (addr: string, jobId: number): Promise<ProbeResult> => {
      expect(jobId).toBe(42);
      return addr === A
        ? { ok: false, code: 500, msg: 'job thread is running or has trigger queue.' }
        : { ok: true, msg: '' };
    });
    const result = await route(input({ strategy: 'BUSYOVER', jobId: 42, probe }));
    expect(result).toEqual({
      kind: 'ONE',
      address: B,
      trail: [
        `idleBeat ${A}: code=500 msg=job thread is running or has trigger queue.`,
        `idleBeat ${B}: code=200`,
      ].join('\n'),
    });
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('returns NONE with every idleBeat in the trail when all executors are busy or down', async () => {
    const probe = vi.fn(async (addr: string): Promise<ProbeResult> => {
      if (addr === C) throw new Error('connect ETIMEDOUT');
      return { ok: false, msg: 'busy' };
    });
    const result = await route(input({ strategy: 'BUSYOVER', probe }));
    expect(result).toEqual({
      kind: 'NONE',
      cause: 'ALL_PROBES_FAILED',
      reason: 'every executor is busy or failed the idleBeat check',
      trail: [
        `idleBeat ${A}: code=500 msg=busy`,
        `idleBeat ${B}: code=500 msg=busy`,
        `idleBeat ${C}: code=500 msg=connect ETIMEDOUT`,
      ].join('\n'),
    });
  });

  it('needs a probe: without one it is a PermanentError', async () => {
    await expect(route(input({ strategy: 'BUSYOVER' }))).rejects.toThrow(PermanentError);
  });
});

describe('route: SHARDING_BROADCAST', () => {
  it('targets every address with its index and the total', async () => {
    expect(await route(input({ strategy: 'SHARDING_BROADCAST' }))).toEqual({
      kind: 'BROADCAST',
      targets: [
        { address: A, index: 0, total: 3 },
        { address: B, index: 1, total: 3 },
        { address: C, index: 2, total: 3 },
      ],
    });
  });

  it("retries one shard on that shard's address, keeping the original total", async () => {
    const result = await route(input({ strategy: 'SHARDING_BROADCAST', shard: { index: 1, total: 4 } }));
    expect(result).toEqual({ kind: 'BROADCAST', targets: [{ address: B, index: 1, total: 4 }] });
  });

  it('retries a shard whose address is gone on the first address, as XXL-JOB does', async () => {
    const result = await route(
      input({ strategy: 'SHARDING_BROADCAST', addresses: [A, B], shard: { index: 3, total: 4 } }),
    );
    expect(result).toEqual({ kind: 'BROADCAST', targets: [{ address: A, index: 3, total: 4 }] });
  });

  it('rejects a malformed shard with a ValidationError', async () => {
    await expect(
      route(input({ strategy: 'SHARDING_BROADCAST', shard: { index: -1, total: 2 } })),
    ).rejects.toThrow(ValidationError);
  });
});
