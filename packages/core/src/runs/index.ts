export type { Alarm, AlarmPublisher, ReportDelta, ReportStore, WorkflowAlarm } from './alarms.js';
export { BufferedReportStore } from './buffered-report-store.js';
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
