import { fromApiGatewayV2 } from '@tickring/api/http';
import { StoreUnavailableError, silentLogger } from '@tickring/core/common';
import type { RegistryEntry } from '@tickring/core/executors';
import { type ExecutorRefusalEvent, executorAuthorizer } from '@tickring/core/executors/use-cases';
import { BufferedReportStore, firstPlannedLogId } from '@tickring/core/runs';
import { MSG } from '@tickring/protocol';
import { makeJob, makeRun, OutcomeFakes } from '@tickring/testing';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { executorApiUri, handleExecutorRequest, REPLY } from './executor-api.js';

const TOKEN = 's3cret-token';

/** The callback API over fakes; `groupTokens`: groups with a token of their own. */
function fixture(token: () => Promise<string> = async () => TOKEN, groupTokens: Record<string, string> = {}) {
  const fakes = new OutcomeFakes();
  const outcome = fakes.deps();
  const reports = new BufferedReportStore(outcome.reports);
  const entries: RegistryEntry[] = [];
  const registry = {
    heartbeat: async (appName: string, address: string, updatedAt: number) => {
      entries.push({ appName, address, updatedAt });
    },
    remove: async (appName: string, address: string) => {
      const i = entries.findIndex((e) => e.appName === appName && e.address === address);
      if (i >= 0) entries.splice(i, 1);
    },
    list: async () => entries,
  };
  const refused: ExecutorRefusalEvent[] = [];
  const deps = {
    recordRefusal: async (event: ExecutorRefusalEvent) => {
      refused.push(event);
    },
    outcome: { ...outcome, reports },
    registry: { registry, clock: fakes.clock, logger: silentLogger },
    logger: silentLogger,
    authorize: executorAuthorizer({
      tokenFor: async (appName) => groupTokens[appName] ?? token(),
      globalToken: token,
      jobs: outcome.jobs,
      clock: fakes.clock,
      logger: silentLogger,
    }),
    flushReports: () => reports.flush(),
  };
  return { fakes, entries, deps, refused };
}

/** The address every test request comes from. */
const SOURCE_IP = '198.51.100.7';

/** A request as API Gateway v2 delivers it (header names as the client sent them). */
function request(
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'XXL-JOB-ACCESS-TOKEN': TOKEN },
  method = 'POST',
) {
  const event = {
    version: '2.0',
    rawPath: path,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    isBase64Encoded: false,
    requestContext: { http: { method, sourceIp: SOURCE_IP }, requestId: 'r' },
  } as unknown as APIGatewayProxyEventV2;
  return fromApiGatewayV2(event);
}

const registration = {
  registryGroup: 'EXECUTOR',
  registryKey: 'app',
  registryValue: 'http://10.0.0.1:9999/',
};

describe('executorApiUri', () => {
  it('takes the uri after /api/ with or without the /xxl-job-admin context path', () => {
    expect(executorApiUri('/api/callback')).toBe('callback');
    expect(executorApiUri('/xxl-job-admin/api/registryRemove')).toBe('registryRemove');
    expect(executorApiUri('/api/a/b')).toBe('a/b');
  });
});

describe('handleExecutorRequest', () => {
  it('answers a non-POST request as the Java admin does', async () => {
    const { deps } = fixture();
    expect(await handleExecutorRequest(deps, request('/api/callback', [], undefined, 'GET'))).toEqual({
      code: 500,
      msg: 'invalid request, HttpMethod not support.',
    });
  });

  it('refuses a missing or wrong token before looking at the uri, and writes nothing', async () => {
    const { deps, entries } = fixture();
    expect(await handleExecutorRequest(deps, request('/api/registry', registration, {}))).toEqual(
      REPLY.wrongToken,
    );
    expect(
      await handleExecutorRequest(
        deps,
        request('/api/nope', registration, { 'xxl-job-access-token': 'wrong' }),
      ),
    ).toEqual({ code: 500, msg: 'The access token is wrong.' });
    expect(entries).toEqual([]);
  });

  it('reads the token header whatever its case', async () => {
    const { deps, entries } = fixture();
    const reply = await handleExecutorRequest(
      deps,
      request('/api/registry', registration, { 'Xxl-Job-Access-Token': TOKEN }),
    );
    expect(reply).toEqual({ code: 200 });
    expect(entries.map((e) => e.address)).toEqual(['http://10.0.0.1:9999/']);
  });

  it('fails closed when the token cannot be read', async () => {
    const { deps } = fixture(() => Promise.reject(new Error('AccessDeniedException')));
    expect(await handleExecutorRequest(deps, request('/api/registry', registration))).toEqual(
      REPLY.wrongToken,
    );
  });

  it('names an unknown uri', async () => {
    const { deps } = fixture();
    expect(await handleExecutorRequest(deps, request('/xxl-job-admin/api/trigger', {}))).toEqual({
      code: 500,
      msg: 'invalid request, uri-mapping(trigger) not found.',
    });
  });

  it('answers "requestBody empty." to an empty body and says when it is not JSON', async () => {
    const { deps } = fixture();
    expect(await handleExecutorRequest(deps, request('/api/callback', ''))).toEqual({
      code: 500,
      msg: 'requestBody empty.',
    });
    expect(await handleExecutorRequest(deps, request('/api/callback', '[{'))).toEqual(REPLY.notJson);
  });

  it('answers "Illegal Argument." to a registration with a blank field', async () => {
    const { deps } = fixture();
    expect(
      await handleExecutorRequest(deps, request('/api/registry', { ...registration, registryValue: '' })),
    ).toEqual({ code: 500, msg: 'Illegal Argument.' });
  });

  it('registers and removes an executor', async () => {
    const { deps, entries } = fixture();
    await handleExecutorRequest(deps, request('/api/registry', registration));
    expect(entries).toHaveLength(1);
    expect(await handleExecutorRequest(deps, request('/api/registryRemove', registration))).toEqual({
      code: 200,
    });
    expect(entries).toEqual([]);
  });

  it('completes runs from a callback and names the unknown logIds', async () => {
    const { deps, fakes } = fixture();
    fakes.runs.set(1, makeRun({ logId: 1 }));
    const reply = await handleExecutorRequest(
      deps,
      request('/api/callback', {
        callbackList: [
          { logId: 1, logDateTime: 1, handleCode: 200, handleMsg: 'ok' },
          { logId: 99, handleCode: 200 },
        ],
      }),
    );
    expect(reply).toEqual({ code: 200, msg: 'unknown logId ignored: 99' });
    expect(fakes.runs.get(1)?.handleCode).toBe(200);
  });

  it('writes the daily counters of a whole callback batch before answering: one add per day', async () => {
    const { deps, fakes } = fixture();
    const day1 = Date.UTC(2030, 0, 1, 12);
    const day2 = Date.UTC(2030, 0, 2, 12);
    for (const [logId, triggerTime] of [
      [1, day1],
      [2, day1],
      [3, day1],
      [4, day2],
    ] as const) {
      fakes.runs.set(logId, makeRun({ logId, triggerTime }));
    }
    const reply = await handleExecutorRequest(
      deps,
      request('/api/callback', [
        { logId: 1, handleCode: 200 },
        { logId: 2, handleCode: 200 },
        { logId: 3, handleCode: 500 },
        { logId: 4, handleCode: 200 },
      ]),
    );
    expect(reply).toEqual({ code: 200 });
    expect(fakes.reports).toEqual([
      { day: '2030-01-01', delta: { running: -3, success: 2, fail: 1 } },
      { day: '2030-01-02', delta: { running: -1, success: 1 } },
    ]);
  });

  it('turns an unexpected failure into a generic code 500', async () => {
    const { deps } = fixture();
    const broken = {
      ...deps,
      registry: {
        ...deps.registry,
        registry: { ...deps.registry.registry, heartbeat: () => Promise.reject(new Error('db down')) },
      },
    };
    expect(await handleExecutorRequest(broken, request('/api/registry', registration))).toEqual(
      REPLY.internal,
    );
  });

  it('tells the executor when the store cannot take writes (a full disk), so it sends again later', async () => {
    const { deps } = fixture();
    const full = new StoreUnavailableError(
      'the database /d/tickring.db cannot take writes: database or disk is full',
    );
    const broken = {
      ...deps,
      registry: {
        ...deps.registry,
        registry: { ...deps.registry.registry, heartbeat: () => Promise.reject(full) },
      },
    };
    expect(await handleExecutorRequest(broken, request('/api/registry', registration))).toEqual({
      code: 500,
      msg: full.message,
    });
  });

  it('checks the token against its group: a group with its own token refuses the global one', async () => {
    const { deps, entries } = fixture(undefined, { 'own-app': 'own-token' });
    const own = { ...registration, registryKey: 'own-app' };
    expect(await handleExecutorRequest(deps, request('/api/registry', own))).toEqual(REPLY.wrongToken);
    expect(
      await handleExecutorRequest(
        deps,
        request('/api/registry', own, { 'XXL-JOB-ACCESS-TOKEN': 'own-token' }),
      ),
    ).toEqual({ code: 200 });
    // ...and its token is no good for another group.
    expect(
      await handleExecutorRequest(
        deps,
        request('/api/registry', registration, { 'XXL-JOB-ACCESS-TOKEN': 'own-token' }),
      ),
    ).toEqual(REPLY.wrongToken);
    expect(entries.map((e) => e.appName)).toEqual(['own-app']);
  });

  it('answers a 3.5 executor in its words: both headers required, and the appname must be its group', async () => {
    const { deps, entries } = fixture(undefined, { 'own-app': 'own-token' });
    const own = { ...registration, registryKey: 'own-app' };
    expect(
      await handleExecutorRequest(deps, request('/api/registry', own, { 'XXL-JOB-APPNAME': 'own-app' })),
    ).toEqual({ code: 500, msg: 'invalid request, accessToken or appname is empty.' });
    expect(
      await handleExecutorRequest(
        deps,
        request('/api/registry', own, { 'XXL-JOB-ACCESS-TOKEN': 'own-token', 'XXL-JOB-APPNAME': 'app' }),
      ),
    ).toEqual({ code: 500, msg: 'invalid request, accessToken or appname invalid.' });
    expect(
      await handleExecutorRequest(
        deps,
        request('/api/registry', own, { 'XXL-JOB-ACCESS-TOKEN': 'own-token', 'XXL-JOB-APPNAME': 'own-app' }),
      ),
    ).toEqual({ code: 200 });
    expect(entries.map((e) => e.appName)).toEqual(['own-app']);
  });

  it("takes a callback only with the token of the reported runs' group, and leaves the runs as they were otherwise", async () => {
    const { deps, fakes } = fixture(undefined, { 'own-app': 'own-token' });
    fakes.jobs.set(1, makeJob({ id: 1, appName: 'own-app' }));
    fakes.jobs.set(2, makeJob({ id: 2, appName: 'app' }));
    const ownRun = firstPlannedLogId(1);
    const otherRun = firstPlannedLogId(2);
    fakes.runs.set(ownRun, makeRun({ logId: ownRun, jobId: 1 }));
    fakes.runs.set(otherRun, makeRun({ logId: otherRun, jobId: 2 }));
    const result = (logId: number) => ({ logId, handleCode: 200, handleMsg: 'done' });
    // The global token, and a 3.5 executor of another group, cannot report the group's runs.
    for (const headers of [
      { 'XXL-JOB-ACCESS-TOKEN': TOKEN } as Record<string, string>,
      { 'XXL-JOB-ACCESS-TOKEN': TOKEN, 'XXL-JOB-APPNAME': 'app' },
      { 'XXL-JOB-ACCESS-TOKEN': 'own-token', 'XXL-JOB-APPNAME': 'app' },
    ]) {
      const reply = await handleExecutorRequest(deps, request('/api/callback', [result(ownRun)], headers));
      expect(reply.code, JSON.stringify(headers)).toBe(500);
    }
    // A batch mixing two groups' runs needs one token good for both: none is.
    expect(
      (
        await handleExecutorRequest(
          deps,
          request('/api/callback', [result(ownRun), result(otherRun)], {
            'XXL-JOB-ACCESS-TOKEN': 'own-token',
          }),
        )
      ).code,
    ).toBe(500);
    expect(fakes.runs.get(ownRun)?.handleCode).toBe(0);
    expect(fakes.runs.get(otherRun)?.handleCode).toBe(0);
    expect(
      await handleExecutorRequest(
        deps,
        request(
          '/api/callback',
          { callbackList: [result(ownRun)] },
          {
            'XXL-JOB-ACCESS-TOKEN': 'own-token',
            'XXL-JOB-APPNAME': 'own-app',
          },
        ),
      ),
    ).toEqual({ code: 200 });
    expect(fakes.runs.get(ownRun)?.handleCode).toBe(200);
  });

  describe('records every refusal of the three paths with its reason, never the token', () => {
    const refusal = (reason: string, detail: string, more: Partial<ExecutorRefusalEvent> = {}) => ({
      request: 'registry',
      appName: 'app',
      address: 'http://10.0.0.1:9999/',
      reason,
      detail,
      ...more,
    });

    it('a missing, wrong or unreadable token, under the app name and address the body gives', async () => {
      const { deps, refused } = fixture();
      await handleExecutorRequest(deps, request('/api/registry', registration, {}));
      await handleExecutorRequest(
        deps,
        request('/api/registryRemove', registration, { 'XXL-JOB-ACCESS-TOKEN': 'wrong-1' }),
      );
      const unreadable = fixture(() => Promise.reject(new Error('AccessDeniedException')));
      await handleExecutorRequest(unreadable.deps, request('/api/registry', registration));
      expect([...refused, ...unreadable.refused]).toEqual([
        refusal('missing-token', MSG.wrongToken),
        refusal('wrong-token', MSG.wrongToken, { request: 'registryRemove' }),
        refusal('token-unavailable', MSG.wrongToken),
      ]);
      expect(JSON.stringify([...refused, ...unreadable.refused])).not.toContain('wrong-1');
    });

    it('a 3.5 executor whose XXL-JOB-APPNAME names another group, or with no token', async () => {
      const { deps, refused } = fixture(undefined, { 'own-app': 'own-token' });
      const own = { ...registration, registryKey: 'own-app' };
      await handleExecutorRequest(
        deps,
        request('/api/registry', own, { 'XXL-JOB-ACCESS-TOKEN': 'own-token', 'XXL-JOB-APPNAME': 'app' }),
      );
      await handleExecutorRequest(deps, request('/api/registry', own, { 'XXL-JOB-APPNAME': 'own-app' }));
      expect(refused).toEqual([
        refusal('app-name-mismatch', MSG.tokenOrAppNameInvalid, { appName: 'own-app' }),
        refusal('missing-token', MSG.tokenOrAppNameEmpty, { appName: 'own-app' }),
      ]);
    });

    it('a body it cannot read, under the address the request came from when the body gives none', async () => {
      const { deps, refused } = fixture();
      await handleExecutorRequest(deps, request('/api/registry', { ...registration, registryValue: ' ' }));
      await handleExecutorRequest(
        deps,
        request('/api/registry', '{', { 'XXL-JOB-ACCESS-TOKEN': TOKEN, 'XXL-JOB-APPNAME': 'app' }),
      );
      await handleExecutorRequest(deps, request('/api/callback', ''));
      expect(refused).toEqual([
        refusal('malformed-request', MSG.illegalArgument, { address: SOURCE_IP }),
        refusal('malformed-request', REPLY.notJson.msg, { address: SOURCE_IP }),
        refusal('malformed-request', MSG.bodyEmpty, { request: 'callback', appName: '', address: SOURCE_IP }),
      ]);
    });

    it('a callback refused for its token; but not a wrong method or path, nor an accepted request', async () => {
      const { deps, refused } = fixture();
      await handleExecutorRequest(
        deps,
        request('/api/callback', [{ logId: 1, handleCode: 200 }], { 'XXL-JOB-ACCESS-TOKEN': 'x' }),
      );
      await handleExecutorRequest(deps, request('/api/registry', registration, undefined, 'GET'));
      await handleExecutorRequest(deps, request('/api/trigger', registration));
      await handleExecutorRequest(deps, request('/api/registry', registration));
      expect(refused).toEqual([
        refusal('wrong-token', MSG.wrongToken, { request: 'callback', appName: '', address: SOURCE_IP }),
      ]);
    });

    it('answers the same when the refusal cannot be recorded', async () => {
      const { deps } = fixture();
      const failing = { ...deps, recordRefusal: () => Promise.reject(new Error('store down')) };
      expect(await handleExecutorRequest(failing, request('/api/registry', registration, {}))).toEqual(
        REPLY.wrongToken,
      );
    });
  });
});
