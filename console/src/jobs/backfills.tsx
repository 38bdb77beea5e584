import type {
  Backfill,
  BackfillPage,
  BackfillPreview,
  BackfillRequest,
  Job,
  Workflow,
} from '@tickring/client';
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

/** Whether a workflow's schedule can be backfilled (each fire then starts a workflow run). */
export function canBackfillWorkflow(workflow: Workflow): boolean {
  return workflow.scheduleType === 'CRON' || workflow.scheduleType === 'FIX_RATE';
}

/**
 * What a backfill runs the past fires of: a job, or a scheduled workflow (a workflow run per fire).
 * The dialog and the list are the same for both; only these calls and words differ.
 */
export interface BackfillTarget {
  /** Names the list's reads, so a job's and a workflow's of the same id never share one. */
  readonly key: string;
  readonly name: string;
  readonly scheduleConf: string;
  readonly timeZone: string;
  /** What each fire becomes, in the dialog's words. */
  readonly runs: string;
  readonly list: () => Promise<BackfillPage>;
  readonly preview: (range: { from: string; to: string }) => Promise<BackfillPreview>;
  readonly start: (body: BackfillRequest) => Promise<Backfill>;
}

export function jobTarget(job: Job): BackfillTarget {
  const path = { id: job.id };
  return {
    key: `job:${job.id}`,
    name: job.name,
    scheduleConf: job.scheduleConf,
    timeZone: job.timeZone,
    runs: 'as BACKFILL runs',
    list: () => api().listJobBackfills({ path, query: { limit: 10 } }),
    preview: (body) => api().previewBackfill({ path, body }),
    start: (body) => api().startBackfill({ path, body }),
  };
}

export function workflowTarget(workflow: Workflow): BackfillTarget {
  const path = { id: workflow.id };
  return {
    key: `workflow:${workflow.id}`,
    name: workflow.name,
    scheduleConf: workflow.scheduleConf,
    timeZone: workflow.timeZone,
    runs: 'each as a BACKFILL workflow run, its input holding that time ({{input.scheduledTime}}); the overlap policy does not hold them back',
    list: () => api().listWorkflowBackfills({ path, query: { limit: 10 } }),
    preview: (body) => api().previewWorkflowBackfill({ path, body }),
    start: (body) => api().startWorkflowBackfill({ path, body }),
  };
}

/** How often the list is read while a backfill runs, and otherwise. */
const LIVE_MS = 2_000;
const IDLE_MS = 30_000;

/** The target's backfills, newest first, with live progress while one runs and Cancel for operators. */
export function Backfills({
  target,
  operate,
  reloadKey,
}: {
  target: BackfillTarget;
  operate: boolean;
  reloadKey: number;
}) {
  const [live, setLive] = useState(false);
  const loaded = useLoad(target.list, `backfills:${target.key}:${reloadKey}`, live ? LIVE_MS : IDLE_MS);
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
                zone={target.timeZone}
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
  target,
  open,
  onClose,
  onStarted,
}: {
  target: BackfillTarget;
  open: boolean;
  onClose: () => void;
  onStarted: () => void;
}) {
  return (
    <Dialog open={open} title={`Backfill “${target.name}”`} onClose={onClose}>
      <BackfillDialogForm target={target} onClose={onClose} onStarted={onStarted} />
    </Dialog>
  );
}

function BackfillDialogForm({
  target,
  onClose,
  onStarted,
}: {
  target: BackfillTarget;
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
    const answer = await target.preview({ from: body.from, to: body.to });
    setPreview({ range, answer });
  });
  const starting = useAction(async (body: BackfillRequest) => {
    await target.start(body);
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
        Runs each fire the schedule (<span class="mono">{target.scheduleConf}</span>, {target.timeZone}) would
        have made from the start up to the end, with its own scheduled time, {target.runs}.
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
                  , from {exactTime(current.first, target.timeZone)} to{' '}
                  {exactTime(current.last, target.timeZone)}
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
