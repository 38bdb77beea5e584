import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SecretSealer } from '../jobs/job-store.js';

const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * AES-256-GCM under a key derived (SHA-256) from a secret held in Secrets Manager (locally: the
 * data dir's tokens file), with the context as additional data: `v1.<iv>.<tag>.<ciphertext>`,
 * base64url. Losing the key makes every sealed value unreadable, which fails closed.
 */
export class AesGcmSecretSealer implements SecretSealer {
  constructor(private readonly keyMaterial: () => Promise<string>) {}

  async seal(context: string, secret: string): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', await this.key(), iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), body]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async open(context: string, sealed: string): Promise<string> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
      throw new Error('the sealed value is not in the v1 format');
    }
    const decipher = createDecipheriv('aes-256-gcm', await this.key(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new Error(
        `the sealed value does not open with this key for ${context} (the key changed, or it was sealed for another group)`,
      );
    }
  }

  private async key(): Promise<Buffer> {
    return createHash('sha256')
      .update(await this.keyMaterial(), 'utf8')
      .digest();
  }
}
