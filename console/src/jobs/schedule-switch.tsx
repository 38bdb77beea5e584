import type { Job } from '@tickring/client';
import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { useAction } from '../lib/hooks';
import './jobs.css';

/**
 * A job's schedule as an on/off switch (startJob/stopJob). Disabled for those who may not operate
 * its group; the server's refusal is shown in place.
 */
export function ScheduleSwitch({ job, onChanged }: { job: Job; onChanged?: (job: Job) => void }) {
  const { me } = useAuth();
  const allowed = canOperate(me, job.appName);
  // The answer of our own start/stop, shown until the page's data catches up with it.
  const [answered, setAnswered] = useState<Job | undefined>();
  const [wanted, setWanted] = useState<boolean | undefined>();
  const shown = answered && answered.id === job.id && answered.version >= job.version ? answered : job;
  const on = wanted ?? shown.triggerStatus === 'RUNNING';
  const errorId = `schedule-switch-error-${job.id}`;

  const { busy, error, run } = useAction(async (checked: boolean) => {
    const updated = checked
      ? await api().startJob({ path: { id: job.id } })
      : await api().stopJob({ path: { id: job.id } });
    setAnswered(updated);
    onChanged?.(updated);
  });
  const toggle = async (checked: boolean) => {
    setWanted(checked);
    await run(checked);
    setWanted(undefined);
  };

  return (
    <div class="schedule-switch">
      <label title={allowed ? undefined : `You may not operate the group ${job.appName}`}>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          disabled={!allowed || busy}
          aria-busy={busy}
          aria-label={`Schedule on for ${job.name}`}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />
        <span aria-hidden="true">{on ? 'On' : 'Off'}</span>
      </label>
      {error && (
        <small id={errorId} class="field-error" role="alert">
          {error.message}
        </small>
      )}
    </div>
  );
}
