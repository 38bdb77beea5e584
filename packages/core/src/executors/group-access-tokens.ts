import type { Clock } from '../common/clock.js';
import { NotFoundError, ValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { GroupStore, SecretSealer } from '../jobs/job-store.js';

/** How long a function keeps a group's token before reading it again (XXL-JOB 3.5 caches 30 s). */
export const GROUP_TOKEN_CACHE_MS = 30_000;

/** A token travels in an HTTP header: printable ASCII without spaces, and long enough to guess hard. */
export const GROUP_TOKEN_LIMITS = { min: 8, max: 255 } as const;
const TOKEN_CHARS = /^[\x21-\x7E]+$/;

export interface GroupTokenDeps {
  readonly groups: Pick<GroupStore, 'get' | 'setAccessToken' | 'clearAccessToken' | 'getSealedAccessToken'>;
  readonly sealer: SecretSealer;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface GroupTokenSet {
  readonly appName: string;
  /** Shown this once; afterwards only its existence (`accessTokenSetAt`) is. */
  readonly accessToken: string;
  readonly accessTokenSetAt: number;
}

/**
 * Gives a group its own access token (XXL-JOB 3.5's `xxl_job_group.access_token`): the one given
 * (`{"accessToken": "..."}`, e.g. the token a 3.5 group already has), or a new random one when the
 * body is empty. Its executors must then present it, and the dispatcher sends it to them, instead
 * of the global token. The token is stored sealed and returned this once.
 */
export async function setGroupAccessToken(
  deps: GroupTokenDeps,
  appName: string,
  input: unknown,
): Promise<GroupTokenSet> {
  const token = readTokenInput(input) ?? newToken();
  if (!(await deps.groups.get(appName))) throw new NotFoundError(`group ${appName} does not exist`);
  const setAt = deps.clock.now();
  await deps.groups.setAccessToken(appName, await deps.sealer.seal(appName, token), setAt);
  deps.logger.info('group access token set', { appName });
  return { appName, accessToken: token, accessTokenSetAt: setAt };
}

/** Drops the group's own token: its executors and the dispatcher go back to the global token. */
export async function clearGroupAccessToken(deps: GroupTokenDeps, appName: string): Promise<void> {
  await deps.groups.clearAccessToken(appName);
  deps.logger.info('group access token removed; the global token applies', { appName });
}

function readTokenInput(input: unknown): string | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationError(
      'the body must be a JSON object: {} for a new token, or {"accessToken": "..."}',
      'body',
    );
  }
  const problems: string[] = [];
  for (const key of Object.keys(input)) {
    if (key !== 'accessToken') problems.push(`unknown field "${key}"; the only field is accessToken`);
  }
  const value = (input as { accessToken?: unknown }).accessToken;
  if (value !== undefined) {
    if (typeof value !== 'string') problems.push('accessToken must be a string');
    else if (value.length < GROUP_TOKEN_LIMITS.min || value.length > GROUP_TOKEN_LIMITS.max) {
      problems.push(
        `accessToken must be ${GROUP_TOKEN_LIMITS.min}–${GROUP_TOKEN_LIMITS.max} characters; got ${value.length}`,
      );
    } else if (!TOKEN_CHARS.test(value)) {
      problems.push('accessToken must be printable ASCII without spaces (it is sent as an HTTP header)');
    }
  }
  if (problems.length > 0) throw new ValidationError(problems.join('; '), 'accessToken');
  return value as string | undefined;
}

/** 32 random bytes, base64url (43 characters). */
function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Buffer.from(bytes).toString('base64url');
}

/**
 * The access token for talking with a group's executors, in both directions: the group's own token
 * when it has one, else the global token. Kept {@link GROUP_TOKEN_CACHE_MS} per group. A token that
 * cannot be read (the secret or the sealing key is unavailable) throws: the caller refuses or fails
 * the request rather than fall back to another token.
 */
export function groupAccessTokens(
  deps: {
    readonly groups: Pick<GroupStore, 'getSealedAccessToken'>;
    readonly sealer: SecretSealer;
    readonly clock: Clock;
    readonly globalToken: () => Promise<string>;
  },
  cacheMs = GROUP_TOKEN_CACHE_MS,
): (appName: string) => Promise<string> {
  const cache = new Map<string, { readonly token: Promise<string>; readonly until: number }>();
  return (appName) => {
    const now = deps.clock.now();
    const hit = cache.get(appName);
    if (hit && hit.until > now) return hit.token;
    const token = (async () => {
      const sealed = await deps.groups.getSealedAccessToken(appName);
      return sealed === undefined ? deps.globalToken() : deps.sealer.open(appName, sealed);
    })();
    cache.set(appName, { token, until: now + cacheMs });
    // A failed read is not kept: the next request tries again.
    token.catch(() => cache.delete(appName));
    if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
    return token;
  };
}
