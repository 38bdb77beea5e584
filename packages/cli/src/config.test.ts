import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configPath,
  loadConfig,
  normalizeUrl,
  removeProfile,
  resolveConnection,
  saveProfile,
} from './config.js';
import { UsageError } from './errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-cli-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('configPath', () => {
  it('is $TICKRING_CONFIG, else $XDG_CONFIG_HOME/tickring/config.json, else ~/.config/tickring/config.json', () => {
    expect(configPath({ TICKRING_CONFIG: '/x/c.json', XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe(
      '/x/c.json',
    );
    expect(configPath({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/u' })).toBe('/xdg/tickring/config.json');
    expect(configPath({ HOME: '/home/u' })).toBe('/home/u/.config/tickring/config.json');
  });
});

describe('saveProfile / removeProfile', () => {
  it('writes the file 0600 in a directory it makes 0700, and keeps other profiles', async () => {
    const path = join(dir, 'nested', 'tickring', 'config.json');
    await saveProfile(path, 'default', { url: 'http://127.0.0.1:8080', token: 'tok-1' });
    expect(await mode(path)).toBe(0o600);
    expect(await mode(join(dir, 'nested', 'tickring'))).toBe(0o700);
    expect(await mode(join(dir, 'nested'))).toBe(0o700);

    await saveProfile(path, 'prod', { url: 'https://tickring.example.com', token: 'tok-2' });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      profiles: {
        default: { url: 'http://127.0.0.1:8080', token: 'tok-1' },
        prod: { url: 'https://tickring.example.com', token: 'tok-2' },
      },
    });
    expect(await mode(path)).toBe(0o600);

    expect(await removeProfile(path, 'default')).toBe(true);
    expect(await removeProfile(path, 'default')).toBe(false);
    expect((await loadConfig(path)).config.profiles).toEqual({
      prod: { url: 'https://tickring.example.com', token: 'tok-2' },
    });
    expect(await mode(path)).toBe(0o600);
  });

  it('makes a file that others could read 0600 when it writes it again', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, '{"profiles": {}}', { mode: 0o644 });
    expect(await mode(path)).toBe(0o644);
    expect((await loadConfig(path)).mode).toBe(0o644);
    await saveProfile(path, 'default', { url: 'http://h:1', token: 't' });
    expect(await mode(path)).toBe(0o600);
  });

  it('leaves the mode of a directory it did not make alone', async () => {
    const parent = join(dir, 'shared');
    await mkdir(parent, { mode: 0o755 });
    await saveProfile(join(parent, 'config.json'), 'default', { url: 'http://h:1', token: 't' });
    expect(await mode(parent)).toBe(0o755);
    expect(await mode(join(parent, 'config.json'))).toBe(0o600);
  });

  it('saves and reads the profiles of the file $TICKRING_CONFIG names; the environment overrides them', async () => {
    const env = { TICKRING_CONFIG: join(dir, 'tickring.json'), HOME: join(dir, 'home') };
    const path = configPath(env);
    expect(path).toBe(join(dir, 'tickring.json'));
    await saveProfile(path, 'default', { url: 'http://a:1', token: 'token-a' });
    await saveProfile(path, 'prod', { url: 'http://b:2', token: 'token-b' });
    expect(await mode(path)).toBe(0o600);
    const loaded = await loadConfig(path);
    expect(resolveConnection(loaded, {}, env)).toEqual({
      url: 'http://a:1',
      token: 'token-a',
      profile: 'default',
    });
    expect(resolveConnection(loaded, {}, { ...env, TICKRING_PROFILE: 'prod' })).toEqual({
      url: 'http://b:2',
      token: 'token-b',
      profile: 'prod',
    });
    expect(resolveConnection(loaded, { profile: 'prod' }, { ...env, TICKRING_TOKEN: 'from-env' })).toEqual({
      url: 'http://b:2',
      token: 'from-env',
      profile: 'prod',
    });
  });

  it('names the file when it is not a config file', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, '{"profiles": {"default": {"url": 1}}}');
    await expect(loadConfig(path)).rejects.toThrow(
      `${path}: profile "default" needs "url" and "token" strings`,
    );
    await writeFile(path, 'not json');
    await expect(loadConfig(path)).rejects.toThrow(UsageError);
    await expect(loadConfig(path)).rejects.toThrow(`the config file ${path} is not JSON`);
  });

  it("keeps a session profile's username and end; a field of another type is an error", async () => {
    const path = join(dir, 'config.json');
    const session = {
      url: 'http://h:1',
      token: 'trs_0123456789ab_secret',
      username: 'ana',
      expiresAt: '2030-01-01T00:30:00.000Z',
      endsAt: '2030-01-01T12:00:00.000Z',
    };
    await saveProfile(path, 'default', session);
    expect((await loadConfig(path)).config.profiles).toEqual({ default: session });
    await saveProfile(path, 'default', { url: 'http://h:1', token: 'plain' });
    expect((await loadConfig(path)).config.profiles).toEqual({
      default: { url: 'http://h:1', token: 'plain' },
    });
    await writeFile(path, JSON.stringify({ profiles: { default: { ...session, username: 7 } } }));
    await expect(loadConfig(path)).rejects.toThrow(
      `${path}: profile "default" has a "username" that is not a string`,
    );
  });

  it('reads a missing file as no profiles', async () => {
    const loaded = await loadConfig(join(dir, 'none.json'));
    expect(loaded).toMatchObject({ exists: false, config: { profiles: {} } });
  });
});

describe('resolveConnection', () => {
  const loaded = {
    path: '/c.json',
    exists: true,
    config: {
      profiles: {
        default: { url: 'http://default:8080', token: 'default-token' },
        prod: { url: 'https://prod.example.com/', token: 'prod-token' },
      },
    },
  };

  it('uses the default profile, or the one named by --profile or TICKRING_PROFILE', () => {
    expect(resolveConnection(loaded, {}, {})).toMatchObject({
      url: 'http://default:8080',
      token: 'default-token',
    });
    expect(resolveConnection(loaded, { profile: 'prod' }, {})).toMatchObject({
      url: 'https://prod.example.com',
      token: 'prod-token',
      profile: 'prod',
    });
    expect(resolveConnection(loaded, {}, { TICKRING_PROFILE: 'prod' })).toMatchObject({
      token: 'prod-token',
    });
    expect(resolveConnection(loaded, { profile: 'default' }, { TICKRING_PROFILE: 'prod' })).toMatchObject({
      token: 'default-token',
    });
  });

  it('lets TICKRING_URL, TICKRING_TOKEN and --url override the profile', () => {
    const env = { TICKRING_URL: 'http://env:1', TICKRING_TOKEN: 'env-token' };
    expect(resolveConnection(loaded, {}, env)).toEqual({
      url: 'http://env:1',
      token: 'env-token',
      profile: 'default',
    });
    expect(resolveConnection(loaded, { url: 'http://flag:2/' }, env)).toMatchObject({
      url: 'http://flag:2',
      token: 'env-token',
    });
    expect(resolveConnection(loaded, {}, { TICKRING_TOKEN: 'env-token' })).toMatchObject({
      url: 'http://default:8080',
      token: 'env-token',
    });
  });

  it("names the profile's signed-in user, unless TICKRING_TOKEN replaces the session", () => {
    const sessions = {
      path: '/c.json',
      exists: true,
      config: {
        profiles: {
          default: {
            url: 'http://s:1',
            token: 'trs_0123456789ab_x',
            username: 'ana',
            endsAt: '2030-01-01T12:00:00.000Z',
          },
          token: { url: 'http://t:1', token: 'trk_0123456789ab_x', username: 'ana' },
        },
      },
    };
    expect(resolveConnection(sessions, {}, {})).toEqual({
      url: 'http://s:1',
      token: 'trs_0123456789ab_x',
      profile: 'default',
      session: { username: 'ana', endsAt: '2030-01-01T12:00:00.000Z' },
    });
    expect(resolveConnection(sessions, {}, { TICKRING_TOKEN: 'other' })).not.toHaveProperty('session');
    expect(resolveConnection(sessions, { profile: 'token' }, {})).not.toHaveProperty('session');
  });

  it('works from the environment alone, without a file', () => {
    const none = { path: '/none.json', exists: false, config: { profiles: {} } };
    expect(resolveConnection(none, {}, { TICKRING_URL: 'http://e:1', TICKRING_TOKEN: 't' })).toMatchObject({
      url: 'http://e:1',
      token: 't',
    });
  });

  it('says how to log in when the URL or the token is missing', () => {
    const none = { path: '/none.json', exists: false, config: { profiles: {} } };
    expect(() => resolveConnection(none, {}, {})).toThrow(UsageError);
    expect(() => resolveConnection(none, {}, {})).toThrow(
      'no server URL and no token (no profile "default" in /none.json): log in with `tickring login --url <url>`, or set TICKRING_URL and TICKRING_TOKEN',
    );
    expect(() => resolveConnection(none, {}, { TICKRING_URL: 'http://e:1' })).toThrow(/^no token \(/);
    expect(() => resolveConnection(loaded, { profile: 'staging' }, {})).toThrow(
      /no profile "staging" in \/c\.json\): log in with `tickring login --url <url> --profile staging`/,
    );
  });
});

describe('normalizeUrl', () => {
  it('keeps http(s) URLs without trailing slashes and refuses the rest', () => {
    expect(normalizeUrl('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(normalizeUrl(' https://x.example.com/tickring// ')).toBe('https://x.example.com/tickring');
    expect(() => normalizeUrl('127.0.0.1:8080')).toThrow(UsageError);
    expect(() => normalizeUrl('ftp://x')).toThrow(/http or https/);
    expect(() => normalizeUrl('http://user:pw@x')).toThrow(/must not carry a user or password/);
  });
});
