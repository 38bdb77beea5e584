import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError, type TokenSource } from '../config/env.js';

/**
 * The token itself: given directly (local mode), or read from Secrets Manager (AWS; call once at
 * cold start). An empty token is a configuration error: tokens fail closed.
 */
export async function resolveToken(source: TokenSource, client?: SecretsManagerClient): Promise<string> {
  if ('value' in source) {
    if (source.value.trim() === '') throw new ConfigError('the token is empty');
    return source.value;
  }
  const secrets = client ?? new SecretsManagerClient({});
  try {
    const result = await secrets.send(new GetSecretValueCommand({ SecretId: source.secretArn }));
    const token = result.SecretString?.trim() ?? '';
    if (token === '')
      throw new ConfigError(`secret ${source.secretArn} holds no token (an empty or binary secret)`);
    return token;
  } finally {
    if (!client) secrets.destroy();
  }
}

/**
 * A token read on first use and kept for the life of the container. A failed read fails closed
 * (the caller's request is refused) and is tried again on the next call.
 */
export function cachedTokenReader(
  source: TokenSource,
  options: { region: string; client?: SecretsManagerClient },
): () => Promise<string> {
  let token: Promise<string> | undefined;
  return () => {
    const client =
      options.client ??
      ('secretArn' in source ? new SecretsManagerClient({ region: options.region }) : undefined);
    token ??= resolveToken(source, client).catch((err: unknown) => {
      token = undefined;
      throw err;
    });
    return token;
  };
}
