import { describe, expect, it } from 'vitest';
import { auditId, auditIdRange, timeOfAuditId } from './audit-ids.js';

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

describe('timeOfAuditId and auditIdRange', () => {
  it("read an id's time back, and bound the ids of a time range", () => {
    const at = Date.parse('2031-01-01T12:00:00.000Z');
    const id = auditId(at, Buffer.alloc(16, 7));
    expect(timeOfAuditId(id)).toBe(at);
    const { low, high } = auditIdRange(at, at);
    expect(low <= id && id <= high).toBe(true);
    expect(auditId(at - 1, Buffer.alloc(16, 0xff)) < low).toBe(true);
    expect(auditId(at + 1, Buffer.alloc(16, 0)) > high).toBe(true);
  });
});
