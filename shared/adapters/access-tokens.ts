import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TokenSource } from '../config/env.js';
import type { Clock } from '../ports/clock.js';
import type { GroupStore, SecretSealer } from '../ports/job-store.js';
import { groupAccessTokens } from '../use-cases/group-access-tokens.js';
import { AesGcmSecretSealer } from './secret-sealer.js';
import { cachedTokenReader } from './secrets.js';

export interface ExecutorAccessTokens {
  /** The global token (`XXL-JOB-ACCESS-TOKEN` of every group without its own). */
  readonly global: () => Promise<string>;
  /** Seals and opens groups' own tokens with the token key. */
  readonly sealer: SecretSealer;
  /** The token of a group's executors: its own, else the global one (kept 30 s). */
  readonly forGroup: (appName: string) => Promise<string>;
}

/** The executor tokens of a function, read from their secrets on first use (once per cold start). */
export function executorAccessTokens(
  sources: { readonly accessToken: TokenSource; readonly tokenKey: TokenSource },
  options: {
    readonly groups: Pick<GroupStore, 'getSealedAccessToken'>;
    readonly clock: Clock;
    readonly region: string;
    readonly client?: SecretsManagerClient | undefined;
  },
): ExecutorAccessTokens {
  const secrets = { region: options.region, client: options.client };
  const global = cachedTokenReader(sources.accessToken, secrets);
  const sealer = new AesGcmSecretSealer(cachedTokenReader(sources.tokenKey, secrets));
  const forGroup = groupAccessTokens({
    groups: options.groups,
    sealer,
    clock: options.clock,
    globalToken: global,
  });
  return { global, sealer, forGroup };
}
