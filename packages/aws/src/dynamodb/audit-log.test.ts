import { describe, expect, it } from 'vitest';
import { auditId, boundedJson } from './audit-log.js';

describe('auditId', () => {
  it('is a ULID whose order is the order of its times', () => {
    const random = Buffer.alloc(16, 0xff);
    const times = [
      0,
      1,
      31,
      32,
      1_700_000_000_000,
      1_700_000_000_001,
      Date.parse('2099-12-31T23:59:59.999Z'),
    ];
    const made = times.map((t) => auditId(t, random));
    for (const id of made) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect([...made].sort()).toEqual(made);
    expect(auditId(0, Buffer.alloc(16, 0))).toBe('0'.repeat(26));
    // The random part orders ids of the same millisecond among themselves only.
    expect(auditId(5, Buffer.alloc(16, 0xff)) < auditId(6, Buffer.alloc(16, 0))).toBe(true);
  });

  it('differs with its random part', () => {
    expect(auditId(7, Buffer.alloc(16, 1))).not.toBe(auditId(7, Buffer.alloc(16, 2)));
  });
});

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
