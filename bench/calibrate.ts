import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { provisionResources } from '../local/provision.js';
import { createAwsClients, destroyAwsClients } from '../shared/adapters/aws-clients.js';
import { type Summary, summarize } from './stats.js';
import type { StandInEndpoints } from './tick-throughput.js';

export interface DynamoCalibration {
  readonly seconds: number;
  readonly concurrency: number;
  /** Share of writes in the mix (the steady state's is about 60 %). */
  readonly writeShare: number;
  /** Requests per second of the mix. */
  readonly opsPerSecond: number;
  readonly writeLatencyMs: Summary;
  readonly readLatencyMs: Summary;
}

/**
 * How many requests DynamoDB Local answers per second on this machine, alone: a mix of conditional
 * UpdateItems and consistent GetItems on 1,000 items (the scheduler's two most common requests),
 * `concurrency` in flight, for `seconds`, through the production client factory.
 */
export async function calibrateDynamo(
  endpoints: StandInEndpoints,
  region: string,
  seconds: number,
  concurrency = 32,
  writeShare = 0.6,
): Promise<DynamoCalibration> {
  const clients = createAwsClients({
    region,
    endpoints: { dynamodb: endpoints.dynamodb, sqs: endpoints.sqs, sns: endpoints.sqs },
  });
  try {
    const resources = await provisionResources(clients, `bench-cal-${randomUUID().slice(0, 8)}-`);
    const table = resources.tables.control;
    const writes: number[] = [];
    const reads: number[] = [];
    const until = performance.now() + seconds * 1000;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const key = { pk: `cal#${next++ % 1000}` };
          const t0 = performance.now();
          if (Math.random() < writeShare) {
            await clients.doc.send(
              new UpdateCommand({
                TableName: table,
                Key: key,
                UpdateExpression: 'ADD #n :one',
                ConditionExpression: 'attribute_not_exists(#n) OR #n >= :zero',
                ExpressionAttributeNames: { '#n': 'n' },
                ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
              }),
            );
            writes.push(performance.now() - t0);
          } else {
            await clients.doc.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
            reads.push(performance.now() - t0);
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    return {
      seconds: elapsed,
      concurrency,
      writeShare,
      opsPerSecond: (writes.length + reads.length) / elapsed,
      writeLatencyMs: summarize(writes),
      readLatencyMs: summarize(reads),
    };
  } finally {
    destroyAwsClients(clients);
  }
}
