import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoPrincipalStore } from './principal-store.js';

/**
 * GET /v1/sign-in-options is public (no credentials, no throttle of its own) and answers
 * `hasEnabledUser()`: with many disabled users ahead of the first enabled one (usernames sort
 * before it), one anonymous call still makes one Query or two, not one per handful of users.
 */

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('prnso');
});
afterAll(() => env?.close());

async function storeWithUsers(disabled: number, enabled: string[]) {
  const table = await freshTable(env, 'principals');
  const item = (username: string, isDisabled: boolean) => ({
    pk: 'user',
    sk: username,
    username,
    displayName: username,
    grant: { role: 'viewer', groups: ['*'], glue: false },
    passwordHash: 'scrypt$1024$8$1$c2FsdA$aGFzaA',
    disabled: isDisabled,
    sessionsValidAfter: 1,
    passwordChangedAt: 1,
    createdAt: 1,
    createdBy: 'bootstrap',
    updatedAt: 1,
    version: 1,
  });
  const items = [
    ...Array.from({ length: disabled }, (_, i) => item(`a-left-${String(i).padStart(5, '0')}`, true)),
    ...enabled.map((u) => item(u, false)),
  ];
  for (let i = 0; i < items.length; i += 25) {
    await env.clients.doc.send(
      new BatchWriteCommand({
        RequestItems: { [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
  }
  let requests = 0;
  const counting = {
    send: (command: unknown) => {
      requests++;
      return env.clients.doc.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { store: new DynamoPrincipalStore({ doc: counting, table }), requests: () => requests };
}

describe('hasEnabledUser with many disabled users', () => {
  it('answers an anonymous caller in a bounded number of reads', async () => {
    // 500 former users (disabled, kept for the audit trail), then the one active admin.
    const { store, requests } = await storeWithUsers(500, ['zz-admin']);
    const started = performance.now();
    expect(await store.hasEnabledUser()).toBe(true);
    const ms = performance.now() - started;
    expect(requests(), `${requests()} Queries in ${ms.toFixed(0)} ms`).toBeLessThanOrEqual(2);
  });
});
