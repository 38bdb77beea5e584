import { FakeClock } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import type { Group } from '../jobs/job.js';
import type { SecretSealer } from '../jobs/job-store.js';
import {
  clearGroupAccessToken,
  GROUP_TOKEN_CACHE_MS,
  groupAccessTokens,
  setGroupAccessToken,
} from './group-access-tokens.js';

function memoryGroups(names: string[]) {
  const groups = new Map<string, Group>(
    names.map((appName) => [
      appName,
      { appName, title: appName, addressType: 'AUTO', addressList: [], createdAt: 0, updatedAt: 0 },
    ]),
  );
  const sealed = new Map<string, string>();
  let sealedReads = 0;
  return {
    sealed,
    sealedReads: () => sealedReads,
    get: async (appName: string) => groups.get(appName),
    setAccessToken: async (appName: string, value: string) => {
      if (!groups.has(appName)) throw new NotFoundError(`group ${appName} does not exist`);
      sealed.set(appName, value);
    },
    clearAccessToken: async (appName: string) => {
      if (!groups.has(appName)) throw new NotFoundError(`group ${appName} does not exist`);
      sealed.delete(appName);
    },
    getSealedAccessToken: async (appName: string) => {
      sealedReads++;
      return sealed.get(appName);
    },
  };
}

/** A stand-in for the AES-GCM sealer (tested with its adapter): reversible, bound to key and context. */
function fakeSealer(key: string): SecretSealer {
  return {
    seal: async (context, secret) => `${key}|${context}|${Buffer.from(secret).toString('base64')}`,
    open: async (context, sealed) => {
      const [k, c, body] = sealed.split('|');
      if (k !== key || c !== context) throw new Error(`the sealed value does not open for ${context}`);
      return Buffer.from(body ?? '', 'base64').toString();
    },
  };
}
const sealer = fakeSealer('the token key');

function fixture() {
  const groups = memoryGroups(['app-a', 'app-b']);
  const clock = new FakeClock(1_000_000);
  const deps = { groups, sealer, clock, logger: silentLogger };
  const tokens = groupAccessTokens({ groups, sealer, clock, globalToken: async () => 'global-token' });
  return { groups, clock, deps, tokens };
}

describe('group access tokens', () => {
  it('makes a random token when none is given, stores it sealed, and returns it once', async () => {
    const { groups, deps, tokens } = fixture();
    const set = await setGroupAccessToken(deps, 'app-a', {});
    expect(set.accessToken).toMatch(/^[\w-]{43}$/);
    expect(set.accessTokenSetAt).toBe(1_000_000);
    expect(groups.sealed.get('app-a')).not.toContain(set.accessToken);
    expect(await tokens('app-a')).toBe(set.accessToken);
    expect(await tokens('app-b')).toBe('global-token');
    expect((await setGroupAccessToken(deps, 'app-b', undefined)).accessToken).not.toBe(set.accessToken);
  });

  it("takes a given token (e.g. a 3.5 group's), and says everything wrong with a bad body at once", async () => {
    const { deps, tokens } = fixture();
    await setGroupAccessToken(deps, 'app-a', { accessToken: 'default_token' });
    expect(await tokens('app-a')).toBe('default_token');
    const bad = setGroupAccessToken(deps, 'app-b', { accessToken: 'has space', extra: 1 });
    await expect(bad).rejects.toBeInstanceOf(ValidationError);
    await expect(setGroupAccessToken(deps, 'app-b', { accessToken: 'has space', extra: 1 })).rejects.toThrow(
      /unknown field "extra".*printable ASCII without spaces/,
    );
    await expect(setGroupAccessToken(deps, 'app-b', { accessToken: 'short' })).rejects.toThrow(/8–255/);
    await expect(setGroupAccessToken(deps, 'app-b', { accessToken: 42 })).rejects.toThrow(/must be a string/);
    await expect(setGroupAccessToken(deps, 'app-b', [])).rejects.toThrow(/JSON object/);
    await expect(setGroupAccessToken(deps, 'nope', {})).rejects.toBeInstanceOf(NotFoundError);
    expect(await tokens('app-b')).toBe('global-token');
  });

  it('goes back to the global token when the group token is removed, once the 30 s cache has passed', async () => {
    const { deps, clock, groups, tokens } = fixture();
    await setGroupAccessToken(deps, 'app-a', { accessToken: 'own-token-1' });
    expect(await tokens('app-a')).toBe('own-token-1');
    await clearGroupAccessToken(deps, 'app-a');
    expect(await tokens('app-a')).toBe('own-token-1');
    const reads = groups.sealedReads();
    clock.advance(GROUP_TOKEN_CACHE_MS);
    expect(await tokens('app-a')).toBe('global-token');
    expect(groups.sealedReads()).toBe(reads + 1);
    await expect(clearGroupAccessToken(deps, 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('fails closed when a sealed token does not open, and tries again on the next call', async () => {
    const { groups, tokens } = fixture();
    groups.sealed.set('app-a', await fakeSealer('another key').seal('app-a', 'x'));
    await expect(tokens('app-a')).rejects.toThrow(/does not open/);
    groups.sealed.set('app-a', await sealer.seal('app-a', 'fixed-token'));
    expect(await tokens('app-a')).toBe('fixed-token');
  });
});
