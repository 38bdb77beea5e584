import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SlowTracker } from '@tickring/core/dispatch';

const MINUTE_MS = 60_000;
/** Counter items outlive their minute by this much, then DynamoDB TTL may delete them. */
const TTL_SECONDS = 3_600;

/** One counter item per job and wall-clock minute in the control table: `slow#{jobId}#{minute}`. */
export class DynamoSlowTracker implements SlowTracker {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; controlTable: string }) {}

  async countSlowDispatch(jobId: number, nowMs: number): Promise<number> {
    const minute = Math.floor(nowMs / MINUTE_MS);
    const result = await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.controlTable,
        Key: { pk: `slow#${jobId}#${minute}` },
        UpdateExpression: 'ADD #count :one SET expiresAt = :expiresAt',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: {
          ':one': 1,
          ':expiresAt': Math.floor(((minute + 1) * MINUTE_MS) / 1000) + TTL_SECONDS,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.count ?? 1);
  }
}
