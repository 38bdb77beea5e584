import { endToEndSuite } from './e2e-scenarios.js';

/**
 * The AWS path end to end, once: the DynamoDB and SQS adapters (on DynamoDB Local and the SQS
 * stand-in) under the Lambda-shaped handlers, a job every second, a retry with its backoff on the
 * ring's delay and the alarm, a child job. What each adapter promises on its own is its contract
 * suite's (`packages/aws/src/{dynamodb,sqs}/*.contract.int.test.ts`); the edit and ONCE scenarios
 * exercise only use-case rules over those promises, so they run on the embedded engine alone
 * (e2e.int.test.ts).
 */
endToEndSuite('dynamodb-local', { scenarios: ['every-second', 'retries', 'child'] });
