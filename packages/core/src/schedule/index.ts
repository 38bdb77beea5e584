export {
  type BoundedDecision,
  boundDecision,
  firstBoundedFire,
  INTERVAL_SCAN,
  jitterOffsetMs,
  MAX_JITTER_SECONDS,
  runsRemaining,
  SCHEDULE_END_REASONS,
  type ScheduleBounds,
  type ScheduleEndReason,
  smallestInterval,
} from './bounds.js';
export { consecutiveFireRuns, followsInSchedule } from './consecutive-fires.js';
export { CronExpression, MAX_YEAR as CRON_MAX_YEAR, MIN_YEAR as CRON_MIN_YEAR } from './cron.js';
export {
  DST_POLICY,
  DST_POLICY_TEXT,
  type DstFireMark,
  type DstKind,
  type DstMarks,
  type DstTransition,
  dstMarks,
} from './dst.js';
export {
  DEFAULT_TIME_ZONE,
  type FireDecision,
  firstFireTime,
  isValidTimeZone,
  MAX_FIX_RATE_SECONDS,
  MISFIRE_STRATEGIES,
  MISFIRE_THRESHOLD_MS,
  type MisfireStrategy,
  nextFireAfter,
  PRE_READ_MS,
  planFires,
  previewFireTimes,
  SCHEDULE_TYPES,
  type Schedule,
  type ScheduleType,
  validateSchedule,
} from './schedule.js';
