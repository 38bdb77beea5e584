import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RouteState, RouteStateStore, VersionedRouteState } from '@tickring/core/dispatch';
import { isConditionFailed } from './util.js';

/** Kept a day past the state's own reset time, then DynamoDB TTL may delete it. */
const TTL_GRACE_SECONDS = 86_400;

/**
 * Routing state in the control table, one item per job (`route#{jobId}`), written with a
 * conditional put on its version so concurrent dispatchers never lose a ROUND step.
 */
export class DynamoRouteStateStore implements RouteStateStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; controlTable: string }) {}

  async get(jobId: number): Promise<VersionedRouteState> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.controlTable,
        Key: { pk: routeKey(jobId) },
        ConsistentRead: true,
      }),
    );
    if (!item) return { state: undefined, version: 0 };
    return { state: item.state as RouteState | undefined, version: Number(item.version ?? 0) };
  }

  async put(jobId: number, state: RouteState, expectedVersion: number): Promise<boolean> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.controlTable,
          Item: {
            pk: routeKey(jobId),
            state,
            version: expectedVersion + 1,
            expiresAt: Math.floor(state.resetAt / 1000) + TTL_GRACE_SECONDS,
          },
          ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : '#version = :version',
          ...(expectedVersion === 0
            ? {}
            : {
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': expectedVersion },
              }),
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }
}

export function routeKey(jobId: number): string {
  return `route#${jobId}`;
}
