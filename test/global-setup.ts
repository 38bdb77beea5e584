import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { startSqsStandIn } from '../local/stand-ins/sqs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    standIns: { dynamoEndpoint: string; sqsEndpoint: string };
  }
}

/** Starts DynamoDB Local and the SQS stand-in once for the whole integration run. */
export default async function setup(project: TestProject) {
  // Side by side: every test waits for both (vitest runs the global setups before any project).
  // The JIT's first tier only: the tests' requests are few and varied, and the optimizing
  // compiler's work (~40 % of the JVM's CPU in a whole run) bought them no time on the 2 cores.
  const [dynamo, sqs] = await Promise.all([
    startDynamoDbLocal({ jvmOptions: ['-XX:TieredStopAtLevel=1'] }),
    startSqsStandIn(),
  ]);
  project.provide('standIns', { dynamoEndpoint: dynamo.endpoint, sqsEndpoint: sqs.endpoint });
  return async () => {
    await sqs.stop();
    await dynamo.stop();
  };
}
