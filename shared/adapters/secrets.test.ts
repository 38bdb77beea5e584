import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/env.js';
import { resolveToken } from './secrets.js';

function fakeClient(secretString: string | undefined) {
  const calls: unknown[] = [];
  const client = {
    send: async (command: { input: unknown }) => {
      calls.push(command.input);
      return { SecretString: secretString };
    },
  } as unknown as SecretsManagerClient;
  return { client, calls };
}

describe('resolveToken', () => {
  it('returns a token given directly', async () => {
    expect(await resolveToken({ value: 'abc' })).toBe('abc');
  });

  it('reads a secret by ARN', async () => {
    const { client, calls } = fakeClient('s3cret\n');
    expect(await resolveToken({ secretArn: 'arn:x' }, client)).toBe('s3cret');
    expect(calls).toEqual([{ SecretId: 'arn:x' }]);
  });

  it('refuses an empty token or secret (fail closed)', async () => {
    await expect(resolveToken({ value: '' })).rejects.toBeInstanceOf(ConfigError);
    await expect(resolveToken({ secretArn: 'arn:x' }, fakeClient('').client)).rejects.toBeInstanceOf(
      ConfigError,
    );
    await expect(resolveToken({ secretArn: 'arn:x' }, fakeClient(undefined).client)).rejects.toThrow(
      /no token/,
    );
  });
});
