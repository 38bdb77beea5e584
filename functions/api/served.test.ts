import { openApiJson } from '@tickring/api/contract';
import { silentLogger } from '@tickring/core/common';
import { ENV } from '@tickring/core/config';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createHandler } from './handler.js';

/**
 * The real api handler; no request here reaches a store (the contract answers first). Requests with
 * a token are checked against the principals table: functions/api/api.int.test.ts has them.
 */
const handler = createHandler(
  loadConfig({
    [ENV.jobsTable]: 'jobs',
    [ENV.groupsTable]: 'groups',
    [ENV.controlTable]: 'control',
    [ENV.runsTable]: 'runs',
    [ENV.registryTable]: 'registry',
    [ENV.principalsTable]: 'principals',
    [ENV.auditTable]: 'audit',
    [ENV.workflowsTable]: 'workflows',
    [ENV.calendarsTable]: 'calendars',
    [ENV.backfillsTable]: 'backfills',
    [ENV.alertsTable]: 'alerts',
    [ENV.alarmTopicArn]: 'arn:aws:sns:eu-west-1:000000000000:alarms',
    [ENV.ringFastQueueUrl]: 'http://127.0.0.1:1/fast',
    [ENV.ringSlowQueueUrl]: 'http://127.0.0.1:1/slow',
    [ENV.adminToken]: 'adm1n',
    [ENV.accessToken]: 'acc3ss',
    [ENV.tokenKey]: 'k3y',
    AWS_REGION: 'eu-west-1',
  }),
  { logger: silentLogger },
);

function event(method: string, path: string, query: Record<string, string> = {}, token?: string) {
  return {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    queryStringParameters: query,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    requestContext: { http: { method, path }, requestId: 'r1' },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
}

describe('the api handler and its contract', () => {
  it('serves the OpenAPI document at GET /v1/openapi.json without a token', async () => {
    const res = await handler(event('GET', '/v1/openapi.json'));
    expect(res.statusCode).toBe(200);
    expect(`${JSON.stringify(JSON.parse(res.body ?? ''), null, 2)}\n`).toBe(openApiJson());
  });

  it('still asks every other route, and other methods on the document, for the token', async () => {
    expect((await handler(event('GET', '/v1/jobs'))).statusCode).toBe(401);
    expect((await handler(event('POST', '/v1/openapi.json'))).statusCode).toBe(401);
  });
});
