import { FakeClock, MemoryRegistrationRefusalStore } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../common/errors.js';
import type { Group } from '../jobs/job.js';
import {
  type AdminExecutorsDeps,
  executorsOf,
  listExecutors,
  listRefusedRegistrations,
} from './admin-executors.js';
import type { RegistryEntry } from './registry-store.js';

const NOW = 1_700_000_000_000;

function group(appName: string, fields: Partial<Group> = {}): Group {
  return {
    appName,
    title: appName,
    addressType: 'AUTO',
    addressList: [],
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  };
}

function entry(appName: string, address: string, secondsAgo: number): RegistryEntry {
  return { appName, address, updatedAt: NOW - secondsAgo * 1000 };
}

function deps(groups: Group[], entries: RegistryEntry[]): AdminExecutorsDeps {
  return {
    groups: {
      get: async (appName) => groups.find((g) => g.appName === appName),
      list: async () => groups,
    },
    registry: { list: async (appName) => entries.filter((e) => e.appName === appName) },
    clock: new FakeClock(NOW),
  };
}

describe('executorsOf', () => {
  it('lists an AUTO group’s registry entries, online when seen within the dead timeout', () => {
    const seenSince = NOW - 90_000;
    expect(
      executorsOf(group('a'), [entry('a', 'http://h1:1/', 10), entry('a', 'http://h2:1/', 91)], seenSince),
    ).toEqual([
      { address: 'http://h1:1/', online: true, lastHeartbeat: NOW - 10_000 },
      { address: 'http://h2:1/', online: false, lastHeartbeat: NOW - 91_000 },
    ]);
  });

  it('counts a beat exactly at the dead timeout as online', () => {
    expect(executorsOf(group('a'), [entry('a', 'http://h1:1/', 90)], NOW - 90_000)[0]?.online).toBe(true);
  });

  it('lists a MANUAL group’s configured addresses, online unknown unless the address registers', () => {
    const manual = group('m', {
      addressType: 'MANUAL',
      addressList: ['http://h1:1/', 'http://h2:1/', 'http://h3:1/'],
    });
    const entries = [
      entry('m', 'http://h1:1', 5),
      entry('m', 'http://h3:1/', 300),
      entry('m', 'http://other:1/', 1),
    ];
    expect(executorsOf(manual, entries, NOW - 90_000)).toEqual([
      { address: 'http://h1:1/', online: true, lastHeartbeat: NOW - 5_000 },
      { address: 'http://h2:1/', online: null, lastHeartbeat: null },
      { address: 'http://h3:1/', online: false, lastHeartbeat: NOW - 300_000 },
    ]);
  });
});

describe('listExecutors', () => {
  const groups = [group('zeta'), group('alpha', { addressType: 'MANUAL', addressList: ['http://m:1/'] })];
  const entries = [entry('zeta', 'http://z:1/', 1)];

  it('lists every group by appName without a filter', async () => {
    const result = await listExecutors(deps(groups, entries), { registryDeadSeconds: 90 });
    expect(result).toEqual([
      {
        appName: 'alpha',
        title: 'alpha',
        addressType: 'MANUAL',
        executors: [{ address: 'http://m:1/', online: null, lastHeartbeat: null }],
      },
      {
        appName: 'zeta',
        title: 'zeta',
        addressType: 'AUTO',
        executors: [{ address: 'http://z:1/', online: true, lastHeartbeat: NOW - 1_000 }],
      },
    ]);
  });

  it('lists one group by appName, and answers NotFoundError for a group that does not exist', async () => {
    const d = deps(groups, entries);
    expect((await listExecutors(d, { registryDeadSeconds: 90 }, 'zeta')).map((g) => g.appName)).toEqual([
      'zeta',
    ]);
    await expect(listExecutors(d, { registryDeadSeconds: 90 }, 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('applies the configured dead timeout', async () => {
    const [zeta] = await listExecutors(
      deps(groups, [entry('zeta', 'http://z:1/', 6)]),
      { registryDeadSeconds: 5 },
      'zeta',
    );
    expect(zeta?.executors[0]?.online).toBe(false);
  });
});

describe('listRefusedRegistrations', () => {
  it('shows a caller the refusals of the groups they see; those of no group only to one who sees all', async () => {
    const refusals = new MemoryRegistrationRefusalStore();
    const now = Date.now();
    for (const [i, appName] of ['billing', 'reports', 'no-such-group'].entries()) {
      await refusals.add({
        appName,
        address: `http://10.0.0.${i}:9999/`,
        reason: 'wrong-token',
        request: 'registry',
        detail: 'The access token is wrong.',
        firstSeen: now - i,
        lastSeen: now - i,
        count: 1,
      });
    }
    const apps = async (appName?: string, visible?: ReadonlySet<string>) =>
      (await listRefusedRegistrations({ refusals }, appName, visible)).map((r) => r.appName);
    expect(await apps()).toEqual(['billing', 'reports', 'no-such-group']);
    expect(await apps(undefined, new Set(['billing']))).toEqual(['billing']);
    expect(await apps('reports', new Set(['billing']))).toEqual([]);
    expect(await apps('no-such-group')).toEqual(['no-such-group']);
  });
});
