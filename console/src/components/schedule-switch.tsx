import { useState } from 'preact/hooks';
import { canOperate, useAuth } from '../lib/auth';
import { useAction } from '../lib/hooks';
import '../jobs/jobs.css';

/** What has a schedule to switch: a job, a workflow. */
export interface Scheduled {
  readonly id: number;
  readonly name: string;
  readonly appName: string;
  readonly triggerStatus: 'RUNNING' | 'STOPPED';
}

/**
 * A schedule as an on/off switch. Disabled for those who may not operate its group; the server's
 * refusal is shown in place. Our own answer is shown until the page's data catches up with it
 * (`isNewer`: whether an answer is at least as recent as the item the page shows).
 */
export function ScheduleSwitch<T extends Scheduled>({
  item,
  switchTo,
  isNewer,
  idPrefix,
  onChanged,
}: {
  item: T;
  /** Starts (true) or stops (false) the schedule; answers the item as changed. */
  switchTo: (on: boolean) => Promise<T>;
  isNewer: (answer: T, shown: T) => boolean;
  /** Makes the error's element id unique on the page. */
  idPrefix: string;
  onChanged?: (item: T) => void;
}) {
  const { me } = useAuth();
  const allowed = canOperate(me, item.appName);
  const [answered, setAnswered] = useState<T | undefined>();
  const [wanted, setWanted] = useState<boolean | undefined>();
  const shown = answered && answered.id === item.id && isNewer(answered, item) ? answered : item;
  const on = wanted ?? shown.triggerStatus === 'RUNNING';
  const errorId = `${idPrefix}-${item.id}`;

  const { busy, error, run } = useAction(async (checked: boolean) => {
    const updated = await switchTo(checked);
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
      <label title={allowed ? undefined : `You may not operate the group ${item.appName}`}>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          disabled={!allowed || busy}
          aria-busy={busy}
          aria-label={`Schedule on for ${item.name}`}
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
