export { type Clock, systemClock } from './clock.js';
export { mapLimit } from './concurrency.js';
export { constantTimeEquals } from './constant-time.js';
export {
  AppError,
  ConflictError,
  ForbiddenError,
  isAppError,
  NotFoundError,
  PermanentError,
  type Problem,
  problemsOf,
  RequestValidationError,
  StoreUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from './errors.js';
export { type LogAttributes, type Logger, silentLogger } from './logger.js';
export { METRIC, type Metrics, type MetricUnit, noMetrics } from './metrics.js';
export { decodePageCursor, encodePageCursor } from './page-cursor.js';
