export { consecutiveFireRuns, followsInSchedule } from './consecutive-fires.js';
export { CronExpression, MAX_YEAR as CRON_MAX_YEAR, MIN_YEAR as CRON_MIN_YEAR } from './cron.js';
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
