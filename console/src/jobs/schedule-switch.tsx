import type { Job } from '@tickring/client';
import { ScheduleSwitch as Switch } from '../components/schedule-switch';
import { api } from '../lib/api';

/** A job's schedule as an on/off switch (startJob/stopJob). */
export function ScheduleSwitch({ job, onChanged }: { job: Job; onChanged?: (job: Job) => void }) {
  return (
    <Switch
      item={job}
      switchTo={(on) =>
        on ? api().startJob({ path: { id: job.id } }) : api().stopJob({ path: { id: job.id } })
      }
      isNewer={(answer, shown) => answer.version >= shown.version}
      idPrefix="schedule-switch-error"
      {...(onChanged ? { onChanged } : {})}
    />
  );
}
