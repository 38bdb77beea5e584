import { randomUUID } from 'node:crypto';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { inject } from 'vitest';
import { provisionResources, type Resources } from '../local/provision.js';

export const TEST_REGION = 'us-east-1';

export interface TestResources {
  readonly clients: AwsClients;
  readonly resources: Resources;
  readonly prefix: string;
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string };
  close(): void;
}

/**
 * Tables, queues and a topic of their own for one test file (or test), on the shared stand-ins,
 * under a unique prefix, reached through the production client factory.
 */
export async function isolatedResources(label = 't'): Promise<TestResources> {
  const { dynamoEndpoint, sqsEndpoint } = inject('standIns');
  const endpoints = { dynamodb: dynamoEndpoint, sqs: sqsEndpoint, sns: sqsEndpoint };
  const clients = createAwsClients({ region: TEST_REGION, endpoints });
  const prefix = `${label}-${randomUUID().slice(0, 8)}-`;
  const resources = await provisionResources(clients, prefix);
  return {
    clients,
    resources,
    prefix,
    endpoints: { dynamodb: dynamoEndpoint, sqs: sqsEndpoint },
    close: () => destroyAwsClients(clients),
  };
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, intervalMs = 100, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
