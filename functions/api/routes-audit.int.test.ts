import { RequestValidationError, Router } from '@tickring/api/http';
import { DynamoAuditLog } from '@tickring/aws/dynamodb';
import { type AuditDeps, recordChange } from '@tickring/core/audit/use-cases';
import { noMetrics, silentLogger } from '@tickring/core/common';
import { ALL_GROUPS, BOOTSTRAP_PRINCIPAL, type Principal } from '@tickring/core/identity';
import { FakeClock } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponse } from '../../test/openapi-check.js';
import { isolatedResources, type TestResources } from '../../test/stand-ins.js';
import { buildAuditDeps } from './audit-deps.js';
import { GuardedRouter } from './authorize.js';
import { addAuditRoutes } from './routes-audit.js';

const NOW = Date.parse('2030-06-01T12:00:00.000Z');

let env: TestResources;
let deps: AuditDeps;
let router: Router;

const operator: Principal = {
  kind: 'session',
  id: 'ana',
  name: 'ana',
  grant: { role: 'operator', groups: ['billing'], glue: false },
  credentialId: 'sess-1',
};
const viewerOfAll: Principal = {
  kind: 'token',
  id: 'tok-1',
  name: 'token:dash',
  grant: { role: 'viewer', groups: ALL_GROUPS, glue: false },
  credentialId: 'tok-1',
};

beforeAll(async () => {
  env = await isolatedResources('audit-api');
  const clock = new FakeClock(NOW);
  deps = buildAuditDeps({
    log: new DynamoAuditLog({
      doc: env.clients.doc,
      auditTable: env.resources.tables.audit,
      retentionDays: 365,
      clock,
    }),
    clock,
    logger: silentLogger,
    metrics: noMetrics,
  });
  router = new Router();
  const unused = async () => {
    throw new Error('not used by the audit route');
  };
  addAuditRoutes(
    new GuardedRouter(router, {
      jobs: { get: unused },
      runs: { get: unused },
      workflows: { get: unused, getRun: unused },
      describe: { workflow: unused, workflowRun: unused },
      recordChange: async () => {},
      loadBefore: {},
      logger: silentLogger,
    }),
    deps,
  );
  const source = { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' };
  const changes = [
    { target: 'job#1', appName: 'billing', at: NOW - 3 * 3_600_000 },
    { target: 'job#2', appName: 'search', at: NOW - 2 * 3_600_000 },
    { target: 'user#bo', appName: undefined, at: NOW - 3_600_000 },
  ];
  for (const change of changes) {
    (deps.clock as FakeClock).advance(change.at - deps.clock.now());
    await recordChange(deps, {
      principal: BOOTSTRAP_PRINCIPAL,
      source,
      action: change.target.startsWith('user') ? 'user.update' : 'job.update',
      target: change.target,
      ...(change.appName ? { appName: change.appName } : {}),
      before: { executorParam: 'a', token: 'old' },
      after: { executorParam: 'b', token: 'new' },
      requestId: `req-${change.target}`,
    });
  }
  (deps.clock as FakeClock).advance(NOW - deps.clock.now());
});
afterAll(() => env?.close());

async function get(principal: Principal, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  const path = `/v1/audit${search ? `?${search}` : ''}`;
  const { handler, params } = router.match('GET', '/v1/audit');
  const reply = await handler({
    method: 'GET',
    path: '/v1/audit',
    query,
    headers: {},
    rawBody: '',
    requestId: 'r',
    sourceIp: '203.0.113.9',
    clientIp: '203.0.113.9',
    params,
    body: undefined,
    auth: principal,
  });
  checkResponse('GET', path, reply.status, reply.body);
  return reply as { status: number; body: { items: { target: string }[]; nextCursor: string | null } };
}

const targets = (reply: { body: { items: { target: string }[] } }) => reply.body.items.map((r) => r.target);

describe('GET /v1/audit', () => {
  it('shows an admin every record, newest first, as the document describes them', async () => {
    const reply = await get(BOOTSTRAP_PRINCIPAL);
    expect(reply.status).toBe(200);
    expect(targets(reply)).toEqual(['user#bo', 'job#2', 'job#1']);
    expect(reply.body.nextCursor).toBeNull();
    expect(reply.body.items[2]).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      at: '2030-06-01T09:00:00.000Z',
      actor: { kind: 'bootstrap', id: 'bootstrap', name: 'bootstrap', credentialId: null },
      source: { ip: '203.0.113.7', userAgent: 'tickring-cli/0.1.0' },
      action: 'job.update',
      target: 'job#1',
      appName: 'billing',
      changes: {
        executorParam: { before: 'a', after: 'b' },
        token: { before: '[redacted]', after: '[redacted]' },
      },
      detail: null,
      requestId: 'req-job#1',
    });
  });

  it('shows an operator the records of its groups only', async () => {
    expect(targets(await get(operator))).toEqual(['job#1']);
    expect(targets(await get(operator, { appName: 'search' }))).toEqual([]);
    expect(targets(await get(operator, { target: 'job#2' }))).toEqual([]);
  });

  it('shows a viewer of every group the records of all groups, not those of users', async () => {
    expect(targets(await get(viewerOfAll))).toEqual(['job#2', 'job#1']);
  });

  it('takes the filters and the time range as ISO instants, and pages', async () => {
    expect(targets(await get(BOOTSTRAP_PRINCIPAL, { target: 'job#2' }))).toEqual(['job#2']);
    expect(targets(await get(BOOTSTRAP_PRINCIPAL, { action: 'user.*' }))).toEqual(['user#bo']);
    expect(targets(await get(BOOTSTRAP_PRINCIPAL, { actor: 'bootstrap', appName: 'billing' }))).toEqual([
      'job#1',
    ]);
    expect(
      targets(
        await get(BOOTSTRAP_PRINCIPAL, { from: '2030-06-01T09:30:00+00:00', to: '2030-06-01T10:00:00Z' }),
      ),
    ).toEqual(['job#2']);
    const first = await get(BOOTSTRAP_PRINCIPAL, { limit: '2' });
    expect(targets(first)).toEqual(['user#bo', 'job#2']);
    const second = await get(BOOTSTRAP_PRINCIPAL, { limit: '2', cursor: first.body.nextCursor ?? '' });
    expect(targets(second)).toEqual(['job#1']);
  });

  it('refuses a malformed query with every problem', async () => {
    const err = await get(BOOTSTRAP_PRINCIPAL, { target: 'cat#1', action: 'job update', limit: '0' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).problems.map((p) => p.field).sort()).toEqual([
      'action',
      'limit',
      'target',
    ]);
  });
});
