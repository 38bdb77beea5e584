import { describe, expect, it } from 'vitest';
import { AesGcmSecretSealer } from './secret-sealer.js';

const sealer = (key: string) => new AesGcmSecretSealer(async () => key);

describe('AesGcmSecretSealer', () => {
  it('opens what it sealed, and the sealed value does not contain the secret', async () => {
    const s = sealer('key material');
    const sealed = await s.seal('app-a', 'the-group-token');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('the-group-token');
    expect(await s.open('app-a', sealed)).toBe('the-group-token');
    expect(await s.seal('app-a', 'the-group-token')).not.toBe(sealed); // a fresh IV each time
  });

  it('refuses a value sealed for another group, under another key, or tampered with', async () => {
    const sealed = await sealer('key material').seal('app-a', 'tok');
    await expect(sealer('key material').open('app-b', sealed)).rejects.toThrow(/does not open/);
    await expect(sealer('other key').open('app-a', sealed)).rejects.toThrow(/does not open/);
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = `${v}.${iv}.${tag}.${body?.startsWith('A') ? 'B' : 'A'}${body?.slice(1)}`;
    await expect(sealer('key material').open('app-a', flipped)).rejects.toThrow(/does not open/);
    await expect(sealer('key material').open('app-a', 'plain-token')).rejects.toThrow(/format/);
  });
});
