export {
  type AdminBackfillsDeps,
  type BackfillPreview,
  type BackfillRequest,
  cancelBackfill,
  getBackfill,
  listJobBackfills,
  previewBackfill,
  startBackfill,
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
