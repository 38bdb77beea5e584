import { pauseScenario } from './pause.scenario.js';

// Fault (b): SIGSTOP of the stack for longer than its lease, then SIGCONT.
pauseScenario();
