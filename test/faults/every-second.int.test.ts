import { killRestartScenario, LONG_DOWNTIME_MS, SHORT_DOWNTIME } from './kill-restart.scenario.js';
import { pauseScenario } from './pause.scenario.js';
import { twoStacksScenario } from './two-stacks.scenario.js';

/**
 * The fault scenarios that run whole stacks under 20 every-second jobs: (a) kill -9 and restart, on
 * the embedded engine (its ring in the file) after a short and a long downtime, and on DynamoDB Local
 * after a short one (the restart re-plans what the stand-in's ring lost, and the backlog's claims race
 * under DynamoDB's conditions; the long downtime's catch-up rules are the tick's, the same on both
 * stores), (b) SIGSTOP / SIGCONT, (f) two stacks on one database file, one killed hard.
 * Each keeps about a core busy (a stack, the executor; on DynamoDB Local its JVM too); two at once
 * overload a 2-core machine until fires go late by seconds, which is not the fault under test. So
 * they run one after the other in this file (vitest runs a file's suites in order).
 */
killRestartScenario('sqlite', [SHORT_DOWNTIME, LONG_DOWNTIME_MS]);
killRestartScenario('dynamodb-local', [SHORT_DOWNTIME]);
pauseScenario();
twoStacksScenario();
