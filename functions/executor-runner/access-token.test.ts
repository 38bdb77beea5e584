import { describe, expect, it } from 'vitest';
import { resolveAccessToken } from './access-token.js';

const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:t';
const reader = (value: string | undefined) => {
  const asked: string[] = [];
  const read = async (id: string) => {
    asked.push(id);
    return value;
  };
  return { read, asked };
};

describe('resolveAccessToken', () => {
  it('returns a directly given token without reading any secret', async () => {
    const r = reader('unused');
    expect(await resolveAccessToken({ value: 'direct' }, r.read)).toBe('direct');
    expect(r.asked).toEqual([]);
  });

  it('reads a plain-text or JSON secret by ARN', async () => {
    const plain = reader(' s3cret \n');
    expect(await resolveAccessToken({ secretArn: arn }, plain.read)).toBe('s3cret');
    expect(plain.asked).toEqual([arn]);
    expect(await resolveAccessToken({ secretArn: arn }, reader('{"token":"from-json"}').read)).toBe(
      'from-json',
    );
    expect(await resolveAccessToken({ secretArn: arn }, reader('{"accessToken":"other"}').read)).toBe(
      'other',
    );
  });

  it('fails when the secret holds no token (tokens fail closed)', async () => {
    await expect(resolveAccessToken({ secretArn: arn }, reader(undefined).read)).rejects.toThrow(
      /holds no access token/,
    );
    await expect(resolveAccessToken({ secretArn: arn }, reader('{"user":"x"}').read)).rejects.toThrow(
      /holds no access token/,
    );
  });
});
