export {
  BACKFILL_LIMITS,
  BACKFILL_STATES,
  type Backfill,
  type BackfillFire,
  type BackfillState,
  backfillDedupKey,
  jobIdOfBackfill,
  MAX_LISTED_FAILURES,
  newBackfillId,
} from './backfill.js';
export {
  type BackfillRange,
  backfillFires,
  firstBackfillFire,
  gateWithin,
  nextBackfillFire,
} from './backfill-fires.js';
export type { BackfillQuery, BackfillStore } from './backfill-store.js';
