import { ForbiddenError, NotFoundError } from '../common/errors.js';
import type { ALL_GROUPS, Grant, Principal, Role } from './access.js';
import { type IdentityDeps, rejectProblems, type TokenInfo, tokenInfo } from './deps.js';
import { formatCredential, grantExcess, readGrant, tokenExpiry, tokenNameProblems } from './identity.js';
import { newId, newSecret, secretHash } from './password.js';
import type { TokenRecord } from './principal-store.js';

export interface TokenCreateInput {
  readonly name: string;
  readonly role: Role;
  readonly groups?: readonly string[] | typeof ALL_GROUPS;
  readonly glue?: boolean;
  /** When it expires (epoch ms), at most a year ahead; or: */
  readonly expiresAt?: number;
  /** In how many days it expires (1–365). */
  readonly expiresInDays?: number;
}

export interface CreatedToken extends TokenInfo {
  /** The credential (`trk_<id>_<secret>`): shown this once, kept only as a hash. */
  readonly token: string;
}

/**
 * Creates an API token for automation: a name unique among active tokens (ConflictError), a grant
 * no wider than the creator's (ForbiddenError; an admin gives any), an expiry within a year. The
 * credential is answered this once.
 */
export async function createApiToken(
  deps: IdentityDeps,
  caller: Principal,
  input: TokenCreateInput,
): Promise<CreatedToken> {
  const now = deps.clock.now();
  const name = input.name.trim();
  const { grant, problems } = readGrant(input);
  const expiry = tokenExpiry(input, now);
  rejectProblems([...tokenNameProblems(name), ...problems, ...expiry.problems]);
  const excess = grantExcess(caller.grant, grant as Grant);
  if (excess.length > 0) {
    throw new ForbiddenError(
      `an API token cannot have more than its creator: ${excess.map((p) => p.message).join('; ')}`,
    );
  }
  const id = newId();
  const secret = newSecret();
  const token: TokenRecord = {
    id,
    name,
    grant: grant as Grant,
    secretHash: secretHash(secret),
    createdAt: now,
    createdBy: caller.name,
    expiresAt: expiry.expiresAt as number,
  };
  await deps.store.createToken(token, now);
  deps.logger.info('API token created', {
    tokenId: id,
    name,
    role: token.grant.role,
    expiresAt: new Date(token.expiresAt).toISOString(),
    by: caller.name,
  });
  return { ...tokenInfo(token, now), token: formatCredential('token', id, secret) };
}

/** Every API token kept (revoked and expired ones for 30 days), newest first, without secrets. */
export async function listApiTokens(deps: IdentityDeps): Promise<TokenInfo[]> {
  const now = deps.clock.now();
  return (await deps.store.listTokens()).map((token) => tokenInfo(token, now));
}

export async function getApiToken(deps: IdentityDeps, id: string): Promise<TokenInfo> {
  const token = await deps.store.getToken(id);
  if (token === undefined) throw new NotFoundError(`API token ${id} does not exist`);
  return tokenInfo(token, deps.clock.now());
}

/** Revokes an API token at once (again: no change); its name is free for a new token. */
export async function revokeApiToken(deps: IdentityDeps, caller: Principal, id: string): Promise<TokenInfo> {
  const now = deps.clock.now();
  const revoked = await deps.store.revokeToken(id, now);
  deps.logger.info('API token revoked', { tokenId: id, name: revoked.name, by: caller.name });
  return tokenInfo(revoked, now);
}
