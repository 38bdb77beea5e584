import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { TokenSource } from '../../shared/config/env.js';

/** Reads a secret's string value by ARN (the port; the Secrets Manager adapter is below). */
export type SecretReader = (secretArn: string) => Promise<string | undefined>;

/** A SecretReader on Secrets Manager `GetSecretValue`; the client is built on first use, once. */
export function secretsManagerReader(
  makeClient: () => SecretsManagerClient = () => new SecretsManagerClient({}),
): SecretReader {
  let client: SecretsManagerClient | undefined;
  return async (secretArn) => {
    client ??= makeClient();
    const out = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    return out.SecretString;
  };
}

/**
 * The token itself: the given value, or the secret's value (plain text, or JSON with a `token` or
 * `accessToken` field). Throws when the secret is empty, so a missing token never means open access.
 */
export async function resolveAccessToken(source: TokenSource, read: SecretReader): Promise<string> {
  if ('value' in source) return source.value;
  const raw = (await read(source.secretArn))?.trim() ?? '';
  let token = raw;
  if (raw.startsWith('{')) {
    const parsed = JSON.parse(raw) as { token?: unknown; accessToken?: unknown };
    const field = parsed.token ?? parsed.accessToken;
    token = typeof field === 'string' ? field.trim() : '';
  }
  if (token === '') throw new Error(`The secret ${source.secretArn} holds no access token`);
  return token;
}
