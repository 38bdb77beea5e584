import { workflowKillRestartScenario } from './workflow-kill-restart.scenario.js';

// On the embedded engine (npm start's default). The same scenario on DynamoDB Local, where the ring
// dies with the process, is in test/faults/dynamodb/ (`npm run test:faults:dynamodb`).
workflowKillRestartScenario('sqlite');
