export { makeAuditEntry } from './audit-entries.js';
export { alertStoreContract, testAlert, testAlertChannel } from './contracts/alert-store.js';
export { type AuditLogContractOptions, auditLogContract } from './contracts/audit-log.js';
export { backfillStoreContract, testBackfill } from './contracts/backfill-store.js';
export { calendarStoreContract, testCalendar } from './contracts/calendar-store.js';
export { groupStoreContract } from './contracts/group-store.js';
export { type JobStoreContractOptions, jobStoreContract } from './contracts/job-store.js';
export { leaseStoreContract } from './contracts/lease-store.js';
export { registrationRefusalStoreContract } from './contracts/registration-refusal-store.js';
export { type RegistryStoreContractOptions, registryStoreContract } from './contracts/registry-store.js';
export { reportStoreContract } from './contracts/report-store.js';
export { type RingQueueHarness, ringQueueContract } from './contracts/ring-queue.js';
export { routeStateStoreContract } from './contracts/route-state-store.js';
export { type RunStoreUnderTest, runStoreContract } from './contracts/run-store.js';
export { slowTrackerContract } from './contracts/slow-tracker.js';
export { workflowStoreContract } from './contracts/workflow-store.js';
export { memoryDispatchDeps } from './dispatch-doubles.js';
export { testGroup, testJob, testRun } from './dispatch-fixtures.js';
export { FakeClock } from './fake-clock.js';
export {
  CONFIGURED_BOOTSTRAP,
  identityFixture,
  loggedText,
  MAX_MS,
  MemoryPrincipalStore,
} from './identity-doubles.js';
export { identityLifecycleSuite } from './identity-lifecycle.js';
export { makeJob } from './jobs.js';
export { MemoryAlertStore } from './memory/alert-store.js';
export { MemoryAuditLog, type MemoryAuditLogOptions } from './memory/audit-log.js';
export { MemoryBackfillStore } from './memory/backfill-store.js';
export { MemoryCalendarStore } from './memory/calendar-store.js';
export { MemoryGroupStore } from './memory/group-store.js';
export { MemoryJobStore, type MemoryJobStoreOptions } from './memory/job-store.js';
export { MemoryLeaseStore } from './memory/lease-store.js';
export {
  MemoryRegistrationRefusalStore,
  type MemoryRegistrationRefusalStoreOptions,
} from './memory/registration-refusal-store.js';
export { MemoryRegistryStore, type MemoryRegistryStoreOptions } from './memory/registry-store.js';
export { MemoryReportStore } from './memory/report-store.js';
export { MemoryRingQueue, type RingDelivery } from './memory/ring-queue.js';
export { MemoryRouteStateStore } from './memory/route-state-store.js';
export { MemoryRunStore, type MemoryRunStoreOptions } from './memory/run-store.js';
export { MemorySlowTracker } from './memory/slow-tracker.js';
export { MemoryWorkflowStore } from './memory/workflow-store.js';
export { makeRun, OutcomeFakes } from './outcome-fakes.js';
export { RunSeeder, type RunSeedFields, type RunSeedOptions, sentRun } from './run-seeding.js';
export {
  endedRun,
  largestRun,
  retriedRun,
  runningState,
  startedFromQueue,
  WORKFLOW_TIME,
  withNodeSucceeded,
  workflowDefinition,
  workflowRecord,
  workflowRun,
} from './workflow-records.js';
