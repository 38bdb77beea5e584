import { describe, expect, it } from 'vitest';
import { boundedJson } from './audit-log.js';

describe('boundedJson', () => {
  it('keeps a value that fits as it is', () => {
    const value = { a: 'x'.repeat(100), b: [1, 2] };
    expect(boundedJson(value, 1000)).toBe(JSON.stringify(value));
  });

  it('cuts the longest strings (counting UTF-8 bytes) until the JSON fits, marking each cut', () => {
    const value = { glueSource: { before: '€'.repeat(50_000), after: 'short' }, version: 3 };
    const json = boundedJson(value, 20_000);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(20_000);
    const back = JSON.parse(json) as { glueSource: { before: string; after: string }; version: number };
    expect(back.glueSource.after).toBe('short');
    expect(back.version).toBe(3);
    expect(back.glueSource.before).toMatch(/^€+… \[\d+ more characters\]$/);
  });
});
