import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LogIdSequence } from '../../ports/log-id-sequence.js';

const LOG_SEQUENCE_KEY = 'seq#log';

/** The logId sequence as one counter item in the control table, moved with an atomic ADD. */
export class DynamoLogIdSequence implements LogIdSequence {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; controlTable: string }) {}

  async reserve(count: number): Promise<number> {
    const result = await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.controlTable,
        Key: { pk: LOG_SEQUENCE_KEY },
        UpdateExpression: 'ADD #v :n',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':n': count },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.value) - count + 1;
  }
}
