import { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '@tickring/core/common';

export const METRICS_NAMESPACE = 'Tickring';

/**
 * Business metrics as CloudWatch EMF lines (Powertools), flushed at the end of each invocation.
 * Metrics are pre-aggregated per name within one flush (one EMF value per name and invocation).
 */
export function createFunctionMetrics(serviceName: string): Metrics & { flush(): void } {
  const raw = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName });
  let pending = 0;
  return {
    add(name, unit, value) {
      raw.addMetric(name, unit, value);
      pending++;
    },
    flush() {
      if (pending === 0) return;
      pending = 0;
      raw.publishStoredMetrics();
    },
  };
}
