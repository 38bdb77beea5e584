import type { Backfill, BackfillPreview, BackfillRequest, Job } from '@tickring/client';
import { useEffect, useState } from 'preact/hooks';
import { Empty, ErrorNotice, Field, Time } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { exactTime, toLocalInput } from '../lib/format';
import { useAction, useLoad } from '../lib/hooks';
import {
  BACKFILL_MAX_PARALLELISM,
  BACKFILL_MAX_RATE,
  type BackfillField,
  type BackfillForm,
  backfillProgress,
  backfillRequest,
  backfillStateText,
} from './backfill-form';

/** Whether a job's schedule can be backfilled (the server says so too, on 400). */
export function canBackfill(job: Job): boolean {
  return (job.scheduleType === 'CRON' || job.scheduleType === 'FIX_RATE') && job.workflowId === null;
}

/** How often the list is read while a backfill runs, and otherwise. */
const LIVE_MS = 2_000;
const IDLE_MS = 30_000;

/** The job's backfills, newest first, with live progress while one runs and Cancel for operators. */
export function JobBackfills({ job, operate, reloadKey }: { job: Job; operate: boolean; reloadKey: number }) {
  const [live, setLive] = useState(false);
  const loaded = useLoad(
    () => api().listJobBackfills({ path: { id: job.id }, query: { limit: 10 } }),
    `backfills:${job.id}:${reloadKey}`,
    live ? LIVE_MS : IDLE_MS,
  );
  const items = loaded.data?.items;
  useEffect(() => setLive((items ?? []).some((b) => b.state === 'RUNNING')), [items]);
  const cancel = useAction(async (id: string) => {
    await api().cancelBackfill({ path: { id } });
    loaded.reload();
  });
  if (!items) {
    return (
      <div aria-busy={loaded.loading}>
        <ErrorNotice error={loaded.error} title="The backfills could not be read" />
      </div>
    );
  }
  if (items.length === 0) {
    return (
      <Empty title="No backfills">
        <p>A backfill runs the fires the schedule would have made in a past range, each with its own time.</p>
      </Empty>
    );
  }
  return (
    <>
      <ErrorNotice error={loaded.error} title="Could not refresh the backfills" />
      <ErrorNotice error={cancel.error} title="Not cancelled" />
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section class="table-wrap" tabIndex={0} aria-label="The backfills (scrolls)">
        <table class="backfills">
          <thead>
            <tr>
              <th scope="col">Range</th>
              <th scope="col">State</th>
              <th scope="col">Progress</th>
              <th scope="col" class="hide-narrow">
                Started
              </th>
              {operate && <th scope="col">Action</th>}
            </tr>
          </thead>
          <tbody>
            {items.map((backfill) => (
              <BackfillRow
                key={backfill.id}
                backfill={backfill}
                zone={job.timeZone}
                operate={operate}
                busy={cancel.busy}
                onCancel={() => void cancel.run(backfill.id)}
              />
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function BackfillRow({
  backfill,
  zone,
  operate,
  busy,
  onCancel,
}: {
  backfill: Backfill;
  zone: string;
  operate: boolean;
  busy: boolean;
  onCancel: () => void;
}) {
  const progress = backfillProgress(backfill);
  return (
    <tr>
      <td class="small">
        {exactTime(backfill.from, zone)} – {exactTime(backfill.to, zone)}
        <div class="muted mono">{backfill.id}</div>
      </td>
      <td>{backfillStateText(backfill)}</td>
      <td>
        <progress
          value={progress.done}
          max={Math.max(backfill.total, 1)}
          aria-label={`Backfill ${backfill.id}: ${progress.text}`}
        />
        <div class="small">{progress.text}</div>
      </td>
      <td class="hide-narrow small">
        <Time at={backfill.createdAt} /> by {backfill.createdBy}
        <div class="muted">
          parallelism {backfill.parallelism}
          {backfill.ratePerMinute === null ? '' : `, ${backfill.ratePerMinute}/min`}
        </div>
      </td>
      {operate && (
        <td>
          {backfill.state === 'RUNNING' && (
            <button
              type="button"
              class="secondary small-button"
              disabled={busy}
              onClick={onCancel}
              aria-label={`Cancel backfill ${backfill.id}`}
            >
              Cancel
            </button>
          )}
        </td>
      )}
    </tr>
  );
}

const FORM_FIELDS: readonly BackfillField[] = ['from', 'to', 'parallelism', 'ratePerMinute'];

/** A past range to run: its count first (the preview), then Start. */
export function BackfillDialog({
  job,
  open,
  onClose,
  onStarted,
}: {
  job: Job;
  open: boolean;
  onClose: () => void;
  onStarted: () => void;
}) {
  return (
    <Dialog open={open} title={`Backfill “${job.name}”`} onClose={onClose}>
      <BackfillDialogForm job={job} onClose={onClose} onStarted={onStarted} />
    </Dialog>
  );
}

function BackfillDialogForm({
  job,
  onClose,
  onStarted,
}: {
  job: Job;
  onClose: () => void;
  onStarted: () => void;
}) {
  const [form, setForm] = useState<BackfillForm>(() => {
    const now = Date.now();
    return {
      from: toLocalInput(new Date(now - 86_400_000).toISOString()),
      to: toLocalInput(new Date(now).toISOString()),
      parallelism: '1',
      ratePerMinute: '',
    };
  });
  // The preview of the range as it was when asked: Start needs one of the range as it is now.
  const [preview, setPreview] = useState<{ range: string; answer: BackfillPreview } | undefined>();
  const range = `${form.from}|${form.to}`;
  const current = preview?.range === range ? preview.answer : undefined;
  const previewing = useAction(async (body: BackfillRequest) => {
    const answer = await api().previewBackfill({
      path: { id: job.id },
      body: { from: body.from, to: body.to },
    });
    setPreview({ range, answer });
  });
  const starting = useAction(async (body: BackfillRequest) => {
    await api().startBackfill({ path: { id: job.id }, body });
    onStarted();
  });
  const set = (field: BackfillField, value: string) => setForm((f) => ({ ...f, [field]: value }));
  const error = starting.error ?? previewing.error;
  const problems = (field: BackfillField) => problemsFor(error, field);
  const submit = async (event: Event) => {
    event.preventDefault();
    const made = backfillRequest(form);
    starting.setError(undefined);
    if ('error' in made) return previewing.setError(made.error);
    // First the count of the range as typed; Start once it is known.
    if (!current) await previewing.run(made.body);
    else await starting.run(made.body);
  };
  const input = (field: BackfillField) => ({
    id: `backfill-${field}`,
    'aria-describedby': `backfill-${field}-help${problems(field).length > 0 ? ` backfill-${field}-error` : ''}`,
    'aria-invalid': problems(field).length > 0 ? true : undefined,
    value: form[field],
    onInput: (e: Event) => set(field, (e.currentTarget as HTMLInputElement).value),
  });
  const startable = current !== undefined && current.total > 0 && !current.tooMany;
  return (
    <form id="backfill-form" onSubmit={submit} noValidate>
      <p class="small">
        Runs each fire the schedule (<span class="mono">{job.scheduleConf}</span>, {job.timeZone}) would have
        made from the start up to the end, with its own scheduled time, as BACKFILL runs.
      </p>
      <ErrorNotice error={unplacedError(error, FORM_FIELDS)} title="Not started" />
      <div class="grid">
        <Field
          id="backfill-from"
          label="From (your time zone)"
          help="The first fire is at or after it."
          problems={problems('from')}
        >
          <input type="datetime-local" {...input('from')} />
        </Field>
        <Field
          id="backfill-to"
          label="To (your time zone)"
          help="Every fire is before it; not in the future."
          problems={problems('to')}
        >
          <input type="datetime-local" {...input('to')} />
        </Field>
      </div>
      <div class="grid">
        <Field
          id="backfill-parallelism"
          label="Parallelism"
          help={`Fires running at once, 1 to ${BACKFILL_MAX_PARALLELISM}; 1 runs them one after another.`}
          problems={problems('parallelism')}
        >
          <input type="text" inputMode="numeric" {...input('parallelism')} />
        </Field>
        <Field
          id="backfill-ratePerMinute"
          label="Most fires a minute"
          help={`1 to ${BACKFILL_MAX_RATE}; empty: as fast as the parallelism allows.`}
          problems={problems('ratePerMinute')}
        >
          <input type="text" inputMode="numeric" {...input('ratePerMinute')} />
        </Field>
      </div>
      <output class="backfill-count" aria-live="polite">
        {current &&
          (current.total === 0 ? (
            'The range holds no fire of the schedule.'
          ) : current.tooMany ? (
            `The range holds more than ${current.limit} fires: a backfill makes at most ${current.limit}; split the range.`
          ) : (
            <>
              <strong>
                {current.total} fire{current.total === 1 ? '' : 's'}
              </strong>
              {current.first && current.last && (
                <>
                  , from {exactTime(current.first, job.timeZone)} to {exactTime(current.last, job.timeZone)}
                </>
              )}
            </>
          ))}
      </output>
      <DialogButtons
        confirmLabel={
          startable ? `Start ${current.total} fire${current.total === 1 ? '' : 's'}` : 'Count the fires'
        }
        busy={previewing.busy || starting.busy}
        disabled={current !== undefined && !startable}
        onCancel={onClose}
        form="backfill-form"
      />
    </form>
  );
}
