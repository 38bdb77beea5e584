/** The route of the audit log. */
import { defineRoute } from './define.js';
import { AuditListQuery, AuditPage } from './schemas-audit.js';

const exampleRecord = {
  id: '01Q3DK7480BK2SRJDHQG4QM1HT',
  at: '2030-01-01T02:00:00.000Z',
  actor: { kind: 'session', id: 'ana', name: 'ana', credentialId: '3f9c1d2e-6b8a-4c57-9e0d-1a2b3c4d5e6f' },
  source: { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' },
  action: 'job.update',
  target: 'job#7',
  appName: 'my-app',
  changes: {
    executorParam: { before: 'region=eu', after: 'region=us' },
    version: { before: 3, after: 4 },
    updatedAt: { before: '2029-12-31T09:30:00.000Z', after: '2030-01-01T02:00:00.000Z' },
  },
  detail: null,
  requestId: 'Jk2Vb0abCwEEMfQ=',
};

export const AUDIT_ROUTES = {
  listAudit: defineRoute({
    operationId: 'listAudit',
    method: 'GET',
    path: '/v1/audit',
    tags: ['audit'],
    access: { kind: 'read', target: 'list' },
    query: AuditListQuery,
    summary: 'List the audit log',
    description:
      'Every accepted change through the admin API (users, tokens, groups, jobs, start, stop, trigger, kill), newest first, page by page: when, who and from where, what was done to which target, and the changed fields before and after (secrets redacted). An admin sees every record; any other caller only the records of the groups it reaches (their jobs, runs and the groups themselves), never those of users and tokens. Records are kept for the audit retention (365 days by default). A page may come back short, with a cursor.',
    responses: {
      200: {
        description: 'A page of records.',
        schema: AuditPage,
        example: { items: [exampleRecord], nextCursor: null },
      },
    },
  }),
} as const;
