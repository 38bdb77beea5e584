import { killRestartScenario, LONG_DOWNTIME_MS, SHORT_DOWNTIME } from './kill-restart.scenario.js';

// Fault (a) on the embedded engine (its ring in the file), after a short and a long downtime. On
// DynamoDB Local: ./dynamodb/every-second.int.test.ts (`npm run test:faults:dynamodb`).
killRestartScenario('sqlite', [SHORT_DOWNTIME, LONG_DOWNTIME_MS]);
