import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ConfigError, type TokenSource } from '@tickring/core/config';

/** Reads a secret's string value by ARN; undefined when it has none (a binary secret). */
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
 * The token itself: given directly (local mode), or read from a secret (AWS; once per cold start)
 * holding it as plain text or as JSON with a `token` or `accessToken` field. An empty token is a
 * configuration error: tokens fail closed.
 */
export async function resolveToken(
  source: TokenSource,
  read: SecretReader = secretsManagerReader(),
): Promise<string> {
  if ('value' in source) {
    if (source.value.trim() === '') throw new ConfigError('the token is empty');
    return source.value;
  }
  const raw = (await read(source.secretArn))?.trim() ?? '';
  let token = raw;
  if (raw.startsWith('{')) {
    let parsed: { token?: unknown; accessToken?: unknown };
    try {
      parsed = JSON.parse(raw) as typeof parsed;
    } catch {
      throw new ConfigError(`secret ${source.secretArn} looks like JSON but is not`);
    }
    const field = parsed.token ?? parsed.accessToken;
    token = typeof field === 'string' ? field.trim() : '';
  }
  if (token === '') {
    throw new ConfigError(
      `secret ${source.secretArn} holds no token (empty, binary, or JSON without "token"/"accessToken")`,
    );
  }
  return token;
}

/** How a cached token treats a failed read. */
export interface FailedReadPolicy {
  /**
   * How long a failed read stands before the next call reads again (default 0: the next call does).
   * For a secret every request may ask for (the edge secret), so an outage is not a read per request.
   */
  readonly failureBackoffMs?: number;
  /** The clock (tests). */
  readonly now?: () => number;
}

/**
 * A token read on first use and kept for the life of the container. A failed read fails closed
 * (the caller's request is refused) and is tried again on the next call, or once `failureBackoffMs`
 * has passed.
 */
export function cachedTokenReader(
  source: TokenSource,
  options: { region: string; client?: SecretsManagerClient } | { read: SecretReader },
  policy: FailedReadPolicy = {},
): () => Promise<string> {
  const read =
    'read' in options
      ? options.read
      : secretsManagerReader(() => options.client ?? new SecretsManagerClient({ region: options.region }));
  const now = policy.now ?? Date.now;
  const backoffMs = policy.failureBackoffMs ?? 0;
  let token: Promise<string> | undefined;
  let failedAt: number | undefined;
  return () => {
    if (token && failedAt !== undefined && now() - failedAt >= backoffMs) {
      token = undefined;
      failedAt = undefined;
    }
    token ??= resolveToken(source, read).catch((err: unknown) => {
      if (backoffMs > 0) failedAt = now();
      else token = undefined;
      throw err;
    });
    return token;
  };
}
