import { createHttpHandler, EDGE_SECRET_HEADER, Router, VIEWER_ADDRESS_HEADER } from '@tickring/api/http';
import type { AuditChange } from '@tickring/core/audit/use-cases';
import { CONFIGURED_BOOTSTRAP, identityFixture, loggedText } from '@tickring/testing';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { GuardedRouter } from './authorize.js';
import { addIdentityRoutes, identityAuthenticator } from './routes-identity.js';

/**
 * The caller's address through the admin API's pipeline (gateway event → edge check → the identity
 * routes → the failed sign-in throttle and the audit log), with the store in memory.
 */

const SECRET = 'Edg3SecretEdg3SecretEdg3SecretEdg3SecretEdg3SecretEdg3SecretEdg3';
/** The CloudFront edge server every request below comes from, as API Gateway sees it. */
const EDGE = '64.252.122.10';

function api() {
  const identity = identityFixture();
  const audited: AuditChange[] = [];
  const router = new Router();
  const guarded = new GuardedRouter(router, {
    jobs: { get: async () => undefined },
    runs: { get: async () => undefined },
    workflows: { get: async () => undefined, getRun: async () => undefined },
    describe: { workflow: async () => null, workflowRun: async () => null },
    logger: identity.logger,
    recordChange: async (change) => {
      audited.push(change);
    },
    loadBefore: {},
  });
  addIdentityRoutes(guarded, identity);
  const handle = createHttpHandler({
    router,
    authenticate: identityAuthenticator(identity),
    logger: identity.logger,
    edgeSecret: async () => SECRET,
  });
  const call = async (method: string, path: string, body: unknown, headers: Record<string, string>) => {
    const res = await handle({
      version: '2.0',
      routeKey: 'ANY /v1/{proxy+}',
      rawPath: path,
      rawQueryString: '',
      headers: { 'content-type': 'application/json', 'user-agent': 'vitest', ...headers },
      requestContext: { http: { method, path, sourceIp: EDGE }, requestId: `r-${audited.length}` },
      body: JSON.stringify(body),
      isBase64Encoded: false,
    } as unknown as APIGatewayProxyEventV2);
    return res.statusCode;
  };
  let n = 0;
  /** A failed sign-in: a new (unknown) username each time, so only the address's count grows. */
  const failSignIn = (headers: Record<string, string>) =>
    call('POST', '/v1/sessions', { username: `nobody${n++}`, password: 'wrong password' }, headers);
  return { identity, audited, call, failSignIn };
}

const viewer = (address: string) => ({ [VIEWER_ADDRESS_HEADER]: address });
const edge = (address: string) => ({ [EDGE_SECRET_HEADER]: SECRET, ...viewer(address) });

describe('the caller address the admin API counts and records', () => {
  it('counts failed sign-ins without the edge secret under the gateway address, whatever CloudFront-Viewer-Address claims', async () => {
    const { identity, failSignIn } = api();
    for (let i = 0; i < 5; i++) {
      const forged = { ...viewer(`198.51.100.${i}:443`), 'x-forwarded-for': `198.51.100.${i}` };
      expect(await failSignIn(forged)).toBe(401);
    }
    // A sixth forged address changes nothing: the gateway's address is locked.
    expect(await failSignIn({ ...viewer('198.51.100.99:443'), [EDGE_SECRET_HEADER]: 'guess' })).toBe(429);
    const store = identity.store as unknown as { throttles: Map<string, unknown> };
    expect([...store.throttles.keys()].filter((k) => k.startsWith('ip#'))).toEqual([`ip#${EDGE}`]);
  });

  it('counts failed sign-ins through CloudFront under each viewer’s address: one viewer does not lock the edge for others', async () => {
    const { identity, failSignIn } = api();
    for (let i = 0; i < 5; i++) expect(await failSignIn(edge('203.0.113.66:50000'))).toBe(401);
    expect(await failSignIn(edge('203.0.113.66:50001'))).toBe(429);
    // Another viewer on the same edge server, IPv6 too, is not locked out.
    expect(await failSignIn(edge('203.0.113.7:443'))).toBe(401);
    expect(await failSignIn(edge('2001:db8:1:2::7:443'))).toBe(401);
    const store = identity.store as unknown as { throttles: Map<string, unknown> };
    expect([...store.throttles.keys()].filter((k) => k.startsWith('ip#')).sort()).toEqual([
      'ip#2001:db8:1:2::/64',
      'ip#203.0.113.66',
      'ip#203.0.113.7',
    ]);
  });

  it('records the viewer address in the audit log through CloudFront, the gateway address otherwise, and never the secret', async () => {
    const { identity, audited, call } = api();
    const admin = { authorization: `Bearer ${CONFIGURED_BOOTSTRAP}` };
    const user = (username: string) => ({
      username,
      password: 'correct horse battery staple',
      role: 'viewer',
      groups: '*',
    });
    expect(await call('POST', '/v1/users', user('ana'), { ...admin, ...edge('2001:db8::42:443') })).toBe(201);
    expect(await call('POST', '/v1/users', user('bob'), { ...admin, ...viewer('198.51.100.1:443') })).toBe(
      201,
    );
    expect(await call('POST', '/v1/users', user('cyd'), { ...admin, ...edge('not an address') })).toBe(201);
    expect(audited.map((change) => [change.target, change.source])).toEqual([
      ['user#ana', { ip: '2001:db8::42', userAgent: 'vitest' }],
      ['user#bob', { ip: EDGE, userAgent: 'vitest' }],
      ['user#cyd', { ip: EDGE, userAgent: 'vitest' }],
    ]);
    expect(JSON.stringify(audited)).not.toContain(SECRET);
    expect(loggedText(identity.logger)).not.toContain(SECRET);
  });
});
