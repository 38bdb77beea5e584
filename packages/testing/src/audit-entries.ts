import type { AuditEntry } from '@tickring/core/audit';

/** A typical accepted change at `at` (ana's session edits job 7 of billing); override what the test is about. */
export function makeAuditEntry(at: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at,
    actor: { kind: 'session', id: 'ana', name: 'ana', credentialId: 'sess-1' },
    source: { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' },
    action: 'job.update',
    target: 'job#7',
    appName: 'billing',
    changes: { executorParam: { before: 'region=eu', after: 'region=us' } },
    requestId: `req-${at}`,
    ...fields,
  };
}
