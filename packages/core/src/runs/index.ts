export {
  type AdminRunsDeps,
  ExecutorCallError,
  getRun,
  killRun,
  listRuns,
  readRunOutput,
} from './admin-runs.js';
export type { Alarm, AlarmPublisher, ReportDelta, ReportStore, WorkflowAlarm } from './alarms.js';
export { BufferedReportStore } from './buffered-report-store.js';
export { callbackReply, processCallbacks, toCallbackItems } from './executor-callbacks.js';
export {
  DEFAULT_MONITOR_BATCH,
  type MonitorDeps,
  type MonitorSettings,
  runMonitorSweeps,
} from './monitors.js';
export {
  dayOf,
  firstPlannedLogId,
  HANDLE_CODE,
  jobIdOfLogId,
  LOG_ID_JOB_FACTOR,
  MAX_HANDLE_MSG,
  MAX_JOB_ID,
  RUN_STATUSES,
  type Run,
  type RunStatus,
  runStatus,
  TRIGGER_CODE,
  truncateMessage,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
} from './run.js';
export type { RunOutcomeDeps } from './run-outcome.js';
export {
  type CompleteOptions,
  type CompleteOutcome,
  type CreateFireResult,
  type DispatchEntry,
  type HandleResult,
  OUTCOME_GRACE_MS,
  type RunQuery,
  type RunStore,
  type StoredRun,
  type TriggerRefusal,
  type WatchedRun,
} from './run-store.js';
