export {
  type AdminRunsDeps,
  ExecutorCallError,
  getRun,
  killRun,
  listRuns,
  readRunOutput,
} from './admin-runs.js';
export { callbackReply, processCallbacks, toCallbackItems } from './executor-callbacks.js';
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
