export { createFunctionLogger } from './logger.js';
export { createFunctionMetrics, METRICS_NAMESPACE } from './metrics.js';
