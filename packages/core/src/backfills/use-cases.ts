export {
  type AdminBackfillsDeps,
  type AdminWorkflowBackfillsDeps,
  type BackfillPreview,
  type BackfillRequest,
  cancelBackfill,
  getBackfill,
  listJobBackfills,
  listWorkflowBackfills,
  previewBackfill,
  previewWorkflowBackfill,
  startBackfill,
  startWorkflowBackfill,
} from './admin-backfills.js';
export {
  advanceBackfill,
  BACKFILL_SWEEP,
  type BackfillStep,
  type BackfillSweepDeps,
  type BackfillSweepResult,
  backfillFireMessage,
  driveBackfills,
  sweepBackfills,
} from './backfill-sweep.js';
