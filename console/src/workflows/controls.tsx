import type { Workflow, WorkflowRun } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { ScheduleSwitch } from '../components/schedule-switch';
import { api } from '../lib/api';
import { useAction } from '../lib/hooks';
import { NODE_STATUS_HELP, NODE_STATUSES, parseInput } from './definition';
import './workflows.css';
import '../jobs/jobs.css';

/** A run's or a node's status as a badge: its word on its colour. */
export function WorkflowStatus({ status }: { status: string }) {
  return <span class={`badge wf-status-${status}`}>{status}</span>;
}

/** The node states, each as it is drawn and in words. */
export function NodeStatusLegend() {
  return (
    <ul class="wf-legend" aria-label="Node states">
      {NODE_STATUSES.map((status) => (
        <li key={status}>
          <WorkflowStatus status={status} /> {NODE_STATUS_HELP[status]}
        </li>
      ))}
    </ul>
  );
}

/**
 * A workflow's schedule as an on/off switch (start/stop); "Trigger only" for a workflow without a
 * schedule.
 */
export function WorkflowScheduleSwitch({
  workflow,
  onChanged,
}: {
  workflow: Workflow;
  onChanged?: (workflow: Workflow) => void;
}) {
  if (workflow.scheduleType === 'NONE') return <span class="muted small">Trigger only</span>;
  const path = { path: { id: workflow.id } };
  return (
    <ScheduleSwitch
      item={workflow}
      switchTo={(on) => (on ? api().startWorkflow(path) : api().stopWorkflow(path))}
      isNewer={(answer, shown) => answer.updatedAt >= shown.updatedAt}
      idPrefix="wf-switch-error"
      {...(onChanged ? { onChanged } : {})}
    />
  );
}

/** "Trigger": a run of the workflow now, with an optional JSON input; then a link to the run. */
export function TriggerDialog({
  workflow,
  onClose,
}: {
  workflow: Workflow | undefined;
  onClose: () => void;
}) {
  return (
    <Dialog
      open={workflow !== undefined}
      title={workflow && <>Trigger “{workflow.name}”</>}
      onClose={onClose}
      class="job-dialog"
    >
      {workflow && <TriggerForm key={workflow.id} workflow={workflow} onClose={onClose} />}
    </Dialog>
  );
}

function TriggerForm({ workflow, onClose }: { workflow: Workflow; onClose: () => void }) {
  const [input, setInput] = useState('');
  const [started, setStarted] = useState<WorkflowRun | undefined>();
  const { busy, error, run, setError } = useAction(async (value: unknown) =>
    setStarted(
      await api().triggerWorkflow({
        path: { id: workflow.id },
        body: value === undefined ? {} : { input: value },
      }),
    ),
  );
  const inputError = error && error.status === undefined ? error : undefined;

  const submit = async (event: Event) => {
    event.preventDefault();
    const parsed = parseInput(input);
    if (!parsed.ok) return setError({ message: parsed.message, problems: [] });
    await run(parsed.value);
  };

  if (started) {
    return (
      <>
        <div class="notice success-notice" role="status">
          <p>
            Run <strong class="mono">{started.id}</strong>{' '}
            {started.status === 'QUEUED' ? 'waits for the running one (QUEUED)' : 'started'}.
          </p>
          <p>
            <Link href={`/workflows/runs/${started.id}`}>See run {started.id}</Link>
          </p>
        </div>
        <footer>
          <button type="button" class="secondary" onClick={onClose}>
            Close
          </button>
        </footer>
      </>
    );
  }
  return (
    <form onSubmit={submit}>
      <p class="muted">
        Starts a run of version {workflow.version} now, whatever its schedule, as its overlap policy (
        {workflow.overlapPolicy}) allows.
      </p>
      {!inputError && <ErrorNotice error={error} title="Not started" />}
      <Field
        id="wf-trigger-input"
        label="Input (JSON, optional)"
        help={
          <>
            Templates read it as <code>{'{{ input.… }}'}</code>. Empty: <code>{'{}'}</code>.
          </>
        }
        problems={inputError ? [inputError.message] : undefined}
      >
        <textarea
          id="wf-trigger-input"
          class="mono"
          rows={5}
          value={input}
          placeholder='{"date": "2030-01-01"}'
          aria-describedby={`wf-trigger-input-help${inputError ? ' wf-trigger-input-error' : ''}`}
          aria-invalid={inputError ? true : undefined}
          onInput={(e) => setInput(e.currentTarget.value)}
        />
      </Field>
      <DialogButtons confirmLabel="Trigger now" busy={busy} onCancel={onClose} />
    </form>
  );
}
