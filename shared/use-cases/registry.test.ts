import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/fake-clock.js';
import { ValidationError } from '../domain/errors.js';
import { silentLogger } from '../ports/logger.js';
import type { RegistryEntry, RegistryStore } from '../ports/registry-store.js';
import { groupAddresses, ILLEGAL_ARGUMENT, parseRegistration, registerExecutor } from './registry.js';

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

describe('parseRegistration', () => {
  it('reads a RegistryParam', () => {
    expect(
      parseRegistration({
        registryGroup: 'EXECUTOR',
        registryKey: 'app',
        registryValue: ' http://10.0.0.1:9999/ ',
      }),
    ).toEqual({ registryGroup: 'EXECUTOR', registryKey: 'app', registryValue: 'http://10.0.0.1:9999/' });
  });

  it.each([
    [{ registryGroup: 'EXECUTOR', registryKey: 'app' }],
    [{ registryGroup: 'EXECUTOR', registryKey: ' ', registryValue: 'http://x/' }],
    [{ registryGroup: '', registryKey: 'app', registryValue: 'http://x/' }],
    [{ registryGroup: 'EXECUTOR', registryKey: 3, registryValue: 'http://x/' }],
    [[]],
    [null],
  ])('answers XXL-JOB\'s "Illegal Argument." to %j', (body) => {
    expect(() => parseRegistration(body)).toThrow(ValidationError);
    expect(() => parseRegistration(body)).toThrow(ILLEGAL_ARGUMENT);
  });

  it('refuses an address longer than 2048 characters, saying so', () => {
    expect(() =>
      parseRegistration({
        registryGroup: 'EXECUTOR',
        registryKey: 'a',
        registryValue: `http://${'x'.repeat(2048)}`,
      }),
    ).toThrow('registryValue is longer than 2048 characters');
  });
});

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
