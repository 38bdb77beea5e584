import { ConfigError } from '@tickring/core/config';
import { describe, expect, it } from 'vitest';
import { cachedTokenReader, resolveToken } from './secrets.js';

const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:t';
const reader = (...values: (string | undefined | Error)[]) => {
  const asked: string[] = [];
  const read = async (id: string) => {
    asked.push(id);
    const value = values.length > 1 ? values.shift() : values[0];
    if (value instanceof Error) throw value;
    return value;
  };
  return { read, asked };
};

describe('resolveToken', () => {
  it('returns a directly given token without reading any secret', async () => {
    const r = reader('unused');
    expect(await resolveToken({ value: 'direct' }, r.read)).toBe('direct');
    expect(r.asked).toEqual([]);
  });

  it('reads a plain-text or JSON secret by ARN', async () => {
    const plain = reader(' s3cret \n');
    expect(await resolveToken({ secretArn: arn }, plain.read)).toBe('s3cret');
    expect(plain.asked).toEqual([arn]);
    expect(await resolveToken({ secretArn: arn }, reader('{"token":"from-json"}').read)).toBe('from-json');
    expect(await resolveToken({ secretArn: arn }, reader('{"accessToken":"other"}').read)).toBe('other');
  });

  it('refuses an empty token or a secret that holds none (tokens fail closed)', async () => {
    await expect(resolveToken({ value: ' ' })).rejects.toBeInstanceOf(ConfigError);
    for (const held of ['', undefined, '{"user":"x"}', '{"token":""}', '{not json']) {
      await expect(resolveToken({ secretArn: arn }, reader(held).read)).rejects.toBeInstanceOf(ConfigError);
    }
    await expect(resolveToken({ secretArn: arn }, reader(undefined).read)).rejects.toThrow(/holds no token/);
  });
});

describe('cachedTokenReader', () => {
  it('reads the secret once and keeps the token', async () => {
    const r = reader('s3cret');
    const token = cachedTokenReader({ secretArn: arn }, { read: r.read });
    expect(await token()).toBe('s3cret');
    expect(await token()).toBe('s3cret');
    expect(r.asked).toEqual([arn]);
  });

  it('fails closed on a failed read and tries again on the next call', async () => {
    const r = reader(new Error('throttled'), 's3cret');
    const token = cachedTokenReader({ secretArn: arn }, { read: r.read });
    await expect(token()).rejects.toThrow('throttled');
    expect(await token()).toBe('s3cret');
    expect(r.asked).toEqual([arn, arn]);
  });

  it('keeps a failed read for failureBackoffMs when asked (a secret every request needs), then reads again', async () => {
    const r = reader(new Error('throttled'), new Error('throttled'), 's3cret');
    let now = 1_000;
    const token = cachedTokenReader(
      { secretArn: arn },
      { read: r.read },
      { failureBackoffMs: 5_000, now: () => now },
    );
    for (let i = 0; i < 50; i++) await expect(token()).rejects.toThrow('throttled');
    expect(r.asked).toEqual([arn]);
    now += 4_999;
    await expect(token()).rejects.toThrow('throttled');
    expect(r.asked).toHaveLength(1);
    now += 1;
    await expect(token()).rejects.toThrow('throttled');
    expect(r.asked).toHaveLength(2);
    now += 5_000;
    expect(await token()).toBe('s3cret');
    now += 60_000;
    expect(await token()).toBe('s3cret');
    expect(r.asked).toHaveLength(3);
  });
});
