import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startSqsStandIn } from '../local/stand-ins/sqs.js';

/** Where DynamoDB Local and the SQS stand-in answer (the CLI starts them; the tests share theirs). */
export interface StandInEndpoints {
  readonly dynamodb: string;
  readonly sqs: string;
}

export interface StartedStandIns {
  readonly endpoints: StandInEndpoints;
  readonly versions: { readonly dynamodb: string; readonly sqs: string };
}

/**
 * Starts DynamoDB Local and the SQS stand-in on 127.0.0.1. Each one's stop step goes to `onStarted`
 * as soon as it runs, so whoever started them stops them, however the run ends.
 */
export async function startStandIns(
  onStarted: (stop: () => Promise<void>) => void,
): Promise<StartedStandIns> {
  const dynamo = await startDynamoDbLocal();
  onStarted(() => dynamo.stop());
  const sqs = await startSqsStandIn();
  onStarted(() => sqs.stop());
  return {
    endpoints: { dynamodb: dynamo.endpoint, sqs: sqs.endpoint },
    versions: { dynamodb: dynamo.version, sqs: sqs.version },
  };
}
