import { FakeClock } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../common/logger.js';
import { groupAddresses, registerExecutor } from './registry.js';
import type { RegistryEntry, RegistryStore } from './registry-store.js';

function memoryRegistry(): RegistryStore & { entries: RegistryEntry[] } {
  const entries: RegistryEntry[] = [];
  return {
    entries,
    heartbeat: async (appName, address, nowMs) => {
      const i = entries.findIndex((e) => e.appName === appName && e.address === address);
      if (i >= 0) entries.splice(i, 1);
      entries.push({ appName, address, updatedAt: nowMs });
    },
    remove: async () => {},
    list: async (appName, seenSince = 0) =>
      entries
        .filter((e) => e.appName === appName && e.updatedAt >= seenSince)
        .sort((a, b) => a.address.localeCompare(b.address)),
  };
}

describe('groupAddresses', () => {
  it('gives an AUTO group its executors seen within the dead timeout, sorted; a MANUAL group its list', async () => {
    const clock = new FakeClock(1_000_000);
    const registry = memoryRegistry();
    const deps = { registry, clock, logger: silentLogger };
    await registerExecutor(deps, {
      registryGroup: 'EXECUTOR',
      registryKey: 'app',
      registryValue: 'http://b/',
    });
    clock.advance(60_000);
    await registerExecutor(deps, {
      registryGroup: 'EXECUTOR',
      registryKey: 'app',
      registryValue: 'http://a/',
    });
    await registerExecutor(deps, {
      registryGroup: 'ADMIN',
      registryKey: 'app',
      registryValue: 'http://admin/',
    });
    const auto = { appName: 'app', addressType: 'AUTO' as const, addressList: [] };
    expect(await groupAddresses(deps, auto, 90)).toEqual(['http://a/', 'http://b/']);
    clock.advance(31_000);
    expect(await groupAddresses(deps, auto, 90)).toEqual(['http://a/']);
    const manual = {
      appName: 'app',
      addressType: 'MANUAL' as const,
      addressList: ['http://z/', 'http://y/'],
    };
    expect(await groupAddresses(deps, manual, 90)).toEqual(['http://z/', 'http://y/']);
  });
});
