export { SqliteAlertStore } from './alert-store.js';
export { SqliteAuditLog, type SqliteAuditLogOptions } from './audit-log.js';
export { SqliteBackfillStore } from './backfill-store.js';
export { SqliteCalendarStore } from './calendar-store.js';
export {
  type BackgroundFailure,
  EmbeddedDatabase,
  type EmbeddedDatabaseOptions,
  type StatementObserver,
} from './database.js';
export { SqliteGroupStore } from './group-store.js';
export { SqliteJobStore, type SqliteJobStoreOptions } from './job-store.js';
export { SqliteLeaseStore } from './lease-store.js';
export { SqlitePrincipalStore, TOKEN_KEPT_AFTER_END_MS } from './principal-store.js';
export {
  SqliteRegistrationRefusalStore,
  type SqliteRegistrationRefusalStoreOptions,
} from './registration-refusal-store.js';
export { SqliteRegistryStore, type SqliteRegistryStoreOptions } from './registry-store.js';
export { type DailyReport, SqliteReportStore } from './report-store.js';
export {
  type SqliteRingDelivery,
  SqliteRingQueue,
  type SqliteRingReceiveOptions,
} from './ring-queue.js';
export { SqliteRouteStateStore } from './route-state-store.js';
export { SqliteRunStore, type SqliteRunStoreOptions } from './runs/run-store.js';
export { SqliteSlowTracker } from './slow-tracker.js';
export { SqliteWorkflowStore, type SqliteWorkflowStoreOptions } from './workflows/workflow-store.js';
