import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SNSClient } from '@aws-sdk/client-sns';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClientOptions } from './aws-config.js';

export type { AwsClientOptions, AwsEndpoints } from './aws-config.js';

export interface AwsClients {
  readonly dynamo: DynamoDBClient;
  readonly doc: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
  readonly lambda: LambdaClient;
  readonly sns: SNSClient;
}

// Stand-ins accept any credentials; AWS uses the function's role from the default chain.
const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

function localSettings(endpoint: string | undefined) {
  return endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {};
}

/**
 * Builds every AWS SDK client once (per cold start / per local stack); adapters receive them.
 */
export function createAwsClients(options: AwsClientOptions): AwsClients {
  const { region, endpoints = {} } = options;
  const dynamo = new DynamoDBClient({ region, ...localSettings(endpoints.dynamodb) });
  const doc = DynamoDBDocumentClient.from(dynamo, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  // Send each request to the client's endpoint, not to the host in the QueueUrl: harmless in AWS and
  // required by the local stand-in, whose queue URLs name `sqs.<region>.localhost` (unresolvable on Debian).
  const sqs = new SQSClient({ region, useQueueUrlAsEndpoint: false, ...localSettings(endpoints.sqs) });
  const lambda = new LambdaClient({ region, ...localSettings(endpoints.lambda) });
  const sns = new SNSClient({ region, ...localSettings(endpoints.sns) });
  // Nothing reads the SDK's own request log (we log through Powertools), but its middleware still
  // builds a filtered copy of every input and output for it: a few per cent of a busy function's CPU.
  for (const client of [dynamo, doc, sqs, lambda, sns]) client.middlewareStack.remove('loggerMiddleware');
  return { dynamo, doc, sqs, lambda, sns };
}

export function destroyAwsClients(clients: AwsClients): void {
  clients.doc.destroy();
  clients.dynamo.destroy();
  clients.sqs.destroy();
  clients.lambda.destroy();
  clients.sns.destroy();
}
