import { killRestartScenario, SHORT_DOWNTIME } from '../kill-restart.scenario.js';

/**
 * Fault (a) on the AWS adapters (DynamoDB Local and the SQS stand-in, brought by the stack itself):
 * the restart re-plans what the stand-in's in-memory ring lost, and the backlog's claims race under
 * DynamoDB's conditions. The long downtime's catch-up rules are the tick's, the same on both stores:
 * they run on the embedded engine in ../kill-restart.int.test.ts.
 */
killRestartScenario('dynamodb-local', [SHORT_DOWNTIME]);
