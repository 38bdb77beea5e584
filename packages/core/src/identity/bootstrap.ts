import type { Principal } from './access.js';
import type { IdentityDeps } from './deps.js';
import { CREDENTIAL_PREFIX } from './identity.js';
import { newSecret, secretHash } from './password.js';

export interface RotatedBootstrap {
  /** The new bootstrap token (`trb_<secret>`): shown this once, kept only as a hash. */
  readonly token: string;
  readonly rotatedAt: number;
  readonly rotatedBy: string;
}

/**
 * Replaces the bootstrap admin token by a new random one, answered this once: from now on only it
 * is the bootstrap token, the configured one (and any rotated before) no longer works. A rotation
 * racing another is a ConflictError (so nobody holds a token that never worked).
 */
export async function rotateBootstrapToken(deps: IdentityDeps, caller: Principal): Promise<RotatedBootstrap> {
  const previous = await deps.store.getBootstrap();
  const token = `${CREDENTIAL_PREFIX.bootstrap}${newSecret()}`;
  const rotatedAt = deps.clock.now();
  await deps.store.putBootstrap(
    { secretHash: secretHash(token), rotatedAt, rotatedBy: caller.name },
    previous?.rotatedAt,
  );
  deps.logger.warn('bootstrap token rotated: the configured admin token no longer works', {
    by: caller.name,
    ...(previous ? { previousRotation: new Date(previous.rotatedAt).toISOString() } : {}),
  });
  return { token, rotatedAt, rotatedBy: caller.name };
}

/** Whether the bootstrap token was rotated, when and by whom (undefined: the configured one applies). */
export async function bootstrapRotation(
  deps: Pick<IdentityDeps, 'store'>,
): Promise<{ readonly rotatedAt: number; readonly rotatedBy: string } | undefined> {
  const record = await deps.store.getBootstrap();
  return record === undefined ? undefined : { rotatedAt: record.rotatedAt, rotatedBy: record.rotatedBy };
}
