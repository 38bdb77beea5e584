import { workflowKillRestartScenario } from '../workflow-kill-restart.scenario.js';

// The ring is the SQS stand-in's memory here: a fire on it dies with the killed process, and only the
// monitors' stalled-run sweep brings it back (see the scenario).
workflowKillRestartScenario('dynamodb-local');
