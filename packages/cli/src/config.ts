/**
 * Where the CLI finds its server: profiles `{url, token}` (a signed-in session's profile also says
 * whose session it is and when it ends) kept in one JSON file, readable by its owner
 * only (0600, its directory 0700), at `$TICKRING_CONFIG`, else `$XDG_CONFIG_HOME/tickring/config.json`,
 * else `~/.config/tickring/config.json`. `TICKRING_URL` and `TICKRING_TOKEN` (and `--url`) override
 * the profile; `--profile` or `TICKRING_PROFILE` picks it (default `default`).
 */
import { chmod, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import type { Env } from './io.js';

export const DEFAULT_PROFILE = 'default';

export interface Profile {
  readonly url: string;
  /** An admin or API token, or a session token (`trs_...`, saved by `tickring login --user`). */
  readonly token: string;
  /** Whose session the token is (`login --user`); absent for a token given as such. */
  readonly username?: string;
  /** The session ends if unused until then (each use moves it on), ISO-8601: as it was at login. */
  readonly expiresAt?: string;
  /** The session ends then at the latest, ISO-8601. */
  readonly endsAt?: string;
}

/** The prefix of a session token (`POST /v1/sessions`). */
export const SESSION_TOKEN_PREFIX = 'trs_';

/** Whether a profile holds a signed-in session (rather than an admin or API token). */
export function isSessionProfile(profile: Profile | undefined): profile is Profile & { username: string } {
  return profile?.token.startsWith(SESSION_TOKEN_PREFIX) === true && typeof profile.username === 'string';
}

export interface ConfigFile {
  readonly profiles: Readonly<Record<string, Profile>>;
}

export interface LoadedConfig {
  readonly path: string;
  readonly config: ConfigFile;
  /** Whether the file exists. */
  readonly exists: boolean;
  /** Its permission bits (e.g. 0o600) when it exists. */
  readonly mode?: number;
}

/** The config file's path for this environment. */
export function configPath(env: Env): string {
  if (env.TICKRING_CONFIG) return env.TICKRING_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'tickring', 'config.json');
}

/** The profile name to use: the flag, else `TICKRING_PROFILE`, else `default`. */
export function profileName(flag: string | undefined, env: Env): string {
  return flag || env.TICKRING_PROFILE || DEFAULT_PROFILE;
}

export async function loadConfig(path: string): Promise<LoadedConfig> {
  let text: string;
  let mode: number;
  try {
    const st = await stat(path);
    mode = st.mode & 0o777;
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { path, config: { profiles: {} }, exists: false };
    throw new UsageError(`cannot read the config file ${path}: ${(err as Error).message}`);
  }
  return { path, config: parseConfig(text, path), exists: true, mode };
}

/** Reads the file's JSON; anything else than profiles of `{url, token}` strings is an error naming it. */
export function parseConfig(text: string, path: string): ConfigFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the config file ${path} is not JSON (${(err as Error).message}); fix or remove it`);
  }
  const profiles: Record<string, Profile> = {};
  const given = (raw as { profiles?: unknown } | null)?.profiles;
  if (typeof raw !== 'object' || raw === null || (given !== undefined && !isRecord(given))) {
    throw new UsageError(`the config file ${path} should be {"profiles": {"<name>": {"url", "token"}}}`);
  }
  for (const [name, entry] of Object.entries(given ?? {})) {
    const url = isRecord(entry) ? entry.url : undefined;
    const token = isRecord(entry) ? entry.token : undefined;
    if (typeof url !== 'string' || typeof token !== 'string') {
      throw new UsageError(`the config file ${path}: profile "${name}" needs "url" and "token" strings`);
    }
    const extra: Record<string, string> = {};
    for (const field of ['username', 'expiresAt', 'endsAt'] as const) {
      const value = (entry as Record<string, unknown>)[field];
      if (value === undefined) continue;
      if (typeof value !== 'string') {
        throw new UsageError(
          `the config file ${path}: profile "${name}" has a "${field}" that is not a string`,
        );
      }
      extra[field] = value;
    }
    profiles[name] = { url, token, ...extra };
  }
  return { profiles };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes the file with `profile` under `name` (others kept): a new file beside it, mode 0600, renamed
 * over the old one, so a crash leaves the old or the new file and the token is never readable by
 * others, not even for a moment. A directory it has to make is 0700.
 */
export async function saveProfile(path: string, name: string, profile: Profile): Promise<void> {
  const current = await loadConfig(path);
  await writeConfig(path, { profiles: { ...current.config.profiles, [name]: profile } });
}

/** Removes profile `name`; false when there was none. */
export async function removeProfile(path: string, name: string): Promise<boolean> {
  const current = await loadConfig(path);
  if (!(name in current.config.profiles)) return false;
  const profiles = { ...current.config.profiles };
  delete profiles[name];
  await writeConfig(path, { profiles });
  return true;
}

async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  const dir = dirname(path);
  const made = await mkdir(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode is masked by the umask; a directory made here is the owner's alone.
  if (made !== undefined) await chmod(dir, 0o700);
  const temp = join(dir, `.config.json.${process.pid}.${Date.now()}.tmp`);
  const file = await open(temp, 'wx', 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(`${JSON.stringify(config, null, 2)}\n`, 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Where requests go, with which token, and the profile that was looked at. */
export interface Connection {
  readonly url: string;
  readonly token: string;
  readonly profile: string;
  /** Whose session the token is, when it is the profile's signed-in session (not TICKRING_TOKEN). */
  readonly session?: { readonly username: string; readonly endsAt?: string };
}

/**
 * The URL and token for a command: `--url`, else `TICKRING_URL`, else the profile's; `TICKRING_TOKEN`,
 * else the profile's. A missing one is a usage error that says how to log in.
 */
export function resolveConnection(
  loaded: LoadedConfig,
  options: { readonly url?: string | undefined; readonly profile?: string | undefined },
  env: Env,
): Connection {
  const name = profileName(options.profile, env);
  const profile = loaded.config.profiles[name];
  const url = options.url || env.TICKRING_URL || profile?.url;
  const token = env.TICKRING_TOKEN || profile?.token;

  if (!url || !token) {
    const missing = !url && !token ? 'no server URL and no token' : !url ? 'no server URL' : 'no token';
    const why = profile
      ? `profile "${name}" in ${loaded.path} lacks it`
      : `no profile "${name}" in ${loaded.path}`;
    const login = `tickring login --url <url>${name === DEFAULT_PROFILE ? '' : ` --profile ${name}`}`;
    throw new UsageError(
      `${missing} (${why}): log in with \`${login}\`, or set TICKRING_URL and TICKRING_TOKEN`,
    );
  }
  const session =
    !env.TICKRING_TOKEN && isSessionProfile(profile)
      ? { username: profile.username, ...(profile.endsAt === undefined ? {} : { endsAt: profile.endsAt }) }
      : undefined;
  return { url: normalizeUrl(url), token, profile: name, ...(session ? { session } : {}) };
}

/** What to run to sign in again to profile `profile` as `username`. */
export function loginAgain(username: string, profile: string): string {
  return `tickring login --user ${username}${profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`}`;
}

/** An http(s) URL without trailing slashes; a usage error otherwise. */
export function normalizeUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new UsageError(
      `the server URL must be an http(s) URL such as http://127.0.0.1:8080; got ${JSON.stringify(text)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`the server URL must be http or https; got ${JSON.stringify(text)}`);
  }
  if (url.username || url.password) {
    throw new UsageError('the server URL must not carry a user or password: the token is given separately');
  }
  return url.toString().replace(/\/+$/, '');
}
