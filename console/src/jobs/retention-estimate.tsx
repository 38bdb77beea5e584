import type { JobRetention } from '@tickring/client';
import { retentionFigures } from './alerts-retention';

/**
 * What keeping the job's run history costs, as the API estimates it (GET /v1/jobs/{id} `retention`):
 * said to be an estimate, with the storage price it assumes and what it leaves out.
 */
export function RetentionEstimate({ estimate, id }: { estimate: JobRetention; id?: string }) {
  if (estimate.estimatedRecords === 0) {
    return (
      <span id={id}>
        Estimate: its schedule keeps no run records (no scheduled fire in the next day); manual runs are not
        counted.
      </span>
    );
  }
  const figures = retentionFigures(estimate);
  return (
    <span id={id}>
      Estimate, not a bill: about <strong>{figures.records}</strong> ({figures.size}) kept at any time, about{' '}
      <strong>{figures.monthlyCost}</strong>
      {figures.pricePerGbMonth && (
        <> at {figures.pricePerGbMonth} (DynamoDB Standard storage, free tier left out)</>
      )}
      . Counted from the schedule’s fires in the next day; retries, manual and child runs not counted.
    </span>
  );
}
