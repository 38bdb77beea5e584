import { constantTimeEquals } from '../common/constant-time.js';
import { UnauthorizedError } from '../common/errors.js';
import { BOOTSTRAP_PRINCIPAL, type Principal } from './access.js';
import { type IdentityDeps, TOUCH_INTERVAL_MS } from './deps.js';
import { type ParsedCredential, parseCredential } from './identity.js';
import { secretMatches } from './password.js';

/** The one answer to every refused bearer credential: it says nothing about why. */
export const INVALID_BEARER_MESSAGE = 'the bearer token is not valid, or has expired or been revoked';

/** Where a request came from (logged with refusals; counted for sign-ins). */
export interface RequestSource {
  readonly ip: string;
  readonly userAgent: string;
}

type Outcome = { readonly principal: Principal } | { readonly refused: string };

/**
 * Who is calling, from the credentials of `Authorization: Bearer <credentials>`:
 * - a session (`trs_<id>_<secret>`): it exists, its secret matches, it is neither idle too long nor
 *   past its end, its user exists, is not disabled, and has not ended its sessions since (a password,
 *   grant or disabled change); the user's grant as it is now. Its use is noted at most once a minute
 *   (sliding the idle deadline);
 * - an API token (`trk_<id>_<secret>`): it exists, its secret matches, it is neither revoked nor
 *   expired; its use is noted at most once a minute;
 * - anything else is the bootstrap admin token: the configured one, or once rotated only the
 *   rotated one.
 * Anything refused is an UnauthorizedError with one message for all reasons (the reason is logged,
 * never a secret).
 */
export async function authenticate(
  deps: IdentityDeps,
  bearer: string,
  source: RequestSource,
): Promise<Principal> {
  const credential = parseCredential(bearer);
  const outcome =
    credential === undefined
      ? await bootstrap(deps, bearer)
      : credential.kind === 'session'
        ? await session(deps, credential)
        : await apiToken(deps, credential);
  if ('principal' in outcome) return outcome.principal;
  deps.logger.info('bearer token refused', {
    kind: credential?.kind ?? 'bootstrap',
    ...(credential ? { credentialId: credential.id } : {}),
    reason: outcome.refused,
    ip: source.ip,
  });
  throw new UnauthorizedError(INVALID_BEARER_MESSAGE);
}

async function bootstrap(deps: IdentityDeps, bearer: string): Promise<Outcome> {
  const rotated = await deps.store.getBootstrap();
  if (rotated !== undefined) {
    return secretMatches(bearer, rotated.secretHash)
      ? { principal: BOOTSTRAP_PRINCIPAL }
      : { refused: 'not a session, API token or the (rotated) bootstrap token' };
  }
  const configured = await deps.bootstrapToken();
  if (configured !== '' && constantTimeEquals(bearer, configured)) return { principal: BOOTSTRAP_PRINCIPAL };
  return { refused: 'not a session, API token or the bootstrap token' };
}

async function session(deps: IdentityDeps, credential: ParsedCredential): Promise<Outcome> {
  const { store, clock, sessions } = deps;
  const found = await store.getSession(credential.id);
  if (found === undefined || !secretMatches(credential.secret, found.secretHash)) {
    return { refused: 'no such session' };
  }
  const now = clock.now();
  if (now >= Math.min(found.endsAt, found.createdAt + sessions.maxMs)) return { refused: 'session ended' };
  if (now >= found.lastUsedAt + sessions.idleMs) return { refused: 'session idle too long' };
  const user = await store.getUser(found.username);
  if (user === undefined) return { refused: 'user deleted' };
  if (user.disabled) return { refused: 'user disabled' };
  // A session begun in the very millisecond of the change survives it: a window too short to matter.
  if (found.validFrom < user.sessionsValidAfter) {
    return { refused: "the user's sessions were ended (password, grant or disabled changed)" };
  }
  if (now - found.lastUsedAt >= TOUCH_INTERVAL_MS) {
    const idleUntil = Math.min(now + sessions.idleMs, found.endsAt);
    await touch(deps, 'session', () => store.touchSession(found.id, now, idleUntil), found.id);
  }
  return {
    principal: {
      kind: 'session',
      id: user.username,
      name: user.username,
      grant: user.grant,
      credentialId: found.id,
    },
  };
}

async function apiToken(deps: IdentityDeps, credential: ParsedCredential): Promise<Outcome> {
  const { store, clock } = deps;
  const found = await store.getToken(credential.id);
  if (found === undefined || !secretMatches(credential.secret, found.secretHash)) {
    return { refused: 'no such API token' };
  }
  const now = clock.now();
  if (found.revokedAt !== undefined) return { refused: 'API token revoked' };
  if (now >= found.expiresAt) return { refused: 'API token expired' };
  if (found.lastUsedAt === undefined || now - found.lastUsedAt >= TOUCH_INTERVAL_MS) {
    await touch(deps, 'token', () => store.touchToken(found.id, now), found.id);
  }
  return {
    principal: {
      kind: 'token',
      id: found.id,
      name: `token:${found.name}`,
      grant: found.grant,
      credentialId: found.id,
    },
  };
}

/** Noting a use is not worth refusing the request for: a failed write is logged. */
async function touch(
  deps: IdentityDeps,
  what: string,
  write: () => Promise<void>,
  id: string,
): Promise<void> {
  try {
    await write();
  } catch (err) {
    deps.logger.warn('could not note the use of a credential', {
      kind: what,
      credentialId: id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}
