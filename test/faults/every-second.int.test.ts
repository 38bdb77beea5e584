import { killRestartScenario } from './kill-restart.scenario.js';
import { pauseScenario } from './pause.scenario.js';
import { twoStacksScenario } from './two-stacks.scenario.js';

/**
 * The three fault scenarios that run whole stacks under 20 every-second jobs: (a) kill -9 and
 * restart, (b) SIGSTOP / SIGCONT, (f) two stacks, one killed hard. Each keeps about a core busy (a
 * stack, its DynamoDB Local, the executor); two at once overload a 2-core machine until fires go
 * late by seconds, which is not the fault under test. So they run one after the other in this file
 * (vitest runs a file's suites in order), beside the lighter fault files on the other worker.
 */
killRestartScenario();
pauseScenario();
twoStacksScenario();
