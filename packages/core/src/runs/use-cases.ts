export {
  type AdminRunsDeps,
  ExecutorCallError,
  getRun,
  killRun,
  listRuns,
  readRunOutput,
} from './admin-runs.js';
export { DEAD_MAN, type DeadManDeps, type DeadManResult, sweepDeadMan } from './dead-man.js';
export { callbackReply, processCallbacks, toCallbackItems } from './executor-callbacks.js';
export {
  type JobLedger,
  type JobLedgerDeps,
  jobFireLedger,
  LEDGER_RUN_MARGIN_MS,
  type LedgerWindowRequest,
} from './job-ledger.js';
export {
  DEADLINE_CHECK_SPAN_MS,
  type JobPoliciesResult,
  type JobPolicyDeps,
  sweepJobPolicies,
} from './job-policies.js';
export {
  DEFAULT_MONITOR_BATCH,
  type MonitorDeps,
  type MonitorSettings,
  runMonitorSweeps,
} from './monitors.js';
export type { RunOutcomeDeps } from './run-outcome.js';
