export { type AdminTriggerDeps, type TriggerAccepted, triggerJob } from './admin-trigger.js';
export { BatchReads } from './batch-reads.js';
export { dispatchRingBatch, type RingBatchDeps, type RingRecord } from './dispatch-batch.js';
export type { DispatchDeps } from './dispatch-deps.js';
export { dispatchFire } from './dispatch-fire.js';
export { dispatchHandedOff, type HandedOffResult } from './dispatch-handed-off.js';
export { DispatchRecord } from './dispatch-record.js';
export { type JobTurn, JobTurns } from './job-turns.js';
export { DISPATCH_DEFAULTS, type DispatchSettings } from './settings.js';
