import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedTokenReader } from '@tickring/aws/secrets';
import type { Clock } from '@tickring/core/common';
import type { TokenSource } from '@tickring/core/config';
import { AesGcmSecretSealer } from '@tickring/core/executors';
import { groupAccessTokens } from '@tickring/core/executors/use-cases';
import type { GroupStore, SecretSealer } from '@tickring/core/jobs';

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
