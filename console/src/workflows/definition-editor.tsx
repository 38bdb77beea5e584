import type { Workflow, WorkflowRequest } from '@tickring/client';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Field } from '../components/common';
import { type DeadlineField, DeadlineFields, type DeadlineInputs } from '../jobs/deadline-fields';
import { fieldProblems } from '../jobs/job-form';
import { timeZoneNames } from '../jobs/time-zones';
import { api, type ShownError } from '../lib/api';
import { useAction, useLoad } from '../lib/hooks';
import { deadlineInputsOf, parseDefinition, previewNodes, problemLines, withDeadline } from './definition';
import { EdgeLegend, WorkflowGraph } from './graph';
import './workflows.css';

/** The deadline fields while the text is not a JSON object (they are off then). */
const NO_DEADLINE: DeadlineInputs = { deadlineTime: '', deadlineZone: 'UTC', deadlineDays: 'daily' };

/**
 * The definition as JSON text, saved as a whole (the server checks it and answers every problem at
 * once, listed under the text). While the text is untouched it follows `initial` (the workflow as
 * read again); once typed in, it is kept. A preview draws the graph as typed. The deadline has
 * fields of its own above the text (the job editor's), which read and write its `deadline`.
 */
export function DefinitionEditor({
  initial,
  version,
  send,
  onSaved,
  submitLabel,
  readOnly,
  alwaysPreview,
  previewHeading,
  children,
}: {
  initial: string;
  /** The version the text was read from (sent back, so a lost update is refused); none for a new one. */
  version?: number;
  send: (body: WorkflowRequest) => Promise<Workflow>;
  onSaved: (workflow: Workflow) => void;
  submitLabel: string;
  readOnly: boolean;
  /** Show the preview and the group's jobs from the start (a new workflow). */
  alwaysPreview?: boolean;
  /** The preview's heading level: under the page's title (h2) or under a section's (h3). */
  previewHeading?: 'h2' | 'h3';
  /** More buttons beside the submit one. */
  children?: ComponentChildren;
}) {
  const PreviewHeading = previewHeading ?? 'h3';
  const [text, setText] = useState(initial);
  const [base, setBase] = useState(version);
  const [dirty, setDirty] = useState(false);
  const [saved, setSaved] = useState<Workflow | undefined>();
  const problemsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (dirty) return;
    setText(initial);
    setBase(version);
  }, [initial, version]);

  const { busy, error, run, setError } = useAction(async (body: WorkflowRequest) => {
    const answer = await send(base === undefined ? body : ({ ...body, version: base } as WorkflowRequest));
    setDirty(false);
    setSaved(answer);
    onSaved(answer);
  });
  useEffect(() => {
    if (error) problemsRef.current?.focus();
  }, [error]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (readOnly) return;
    setSaved(undefined);
    const parsed = parseDefinition(text);
    if (!parsed.ok) return setError({ message: parsed.message, problems: [] });
    await run(parsed.value);
  };

  const edit = (next: string) => {
    setText(next);
    setDirty(true);
  };
  const deadline = useMemo(() => deadlineInputsOf(text), [text]);
  const deadlineId = (field: DeadlineField) => `wf-${field}`;
  const deadlineProblems = (field: DeadlineField) => fieldProblems(error, field);
  const preview = useMemo(() => previewNodes(text), [text]);
  const appName = useMemo(() => appNameOf(text), [text]);
  const showPreview = alwaysPreview || (dirty && text !== initial);
  const problemsId = 'wf-definition-problems';

  return (
    <form class="wf-editor" onSubmit={submit} noValidate>
      <fieldset disabled={readOnly || busy}>
        <fieldset disabled={deadline === undefined} aria-describedby="wf-deadline-note">
          <legend>Deadline</legend>
          <small id="wf-deadline-note" class="help">
            {deadline === undefined
              ? 'Make the definition a JSON object to set its deadline here.'
              : 'A run of the workflow must have ended SUCCEEDED by this time; an alarm when none has. Written into the definition below.'}
          </small>
          <DeadlineFields
            value={deadline ?? NO_DEADLINE}
            onChange={(next) => edit(withDeadline(text, next))}
            fieldId={deadlineId}
            inputProps={(field) => ({
              id: deadlineId(field),
              'aria-describedby': [
                `${deadlineId(field)}-help`,
                deadlineProblems(field).length > 0 ? `${deadlineId(field)}-error` : '',
              ]
                .filter(Boolean)
                .join(' '),
              'aria-invalid': deadlineProblems(field).length > 0 ? true : undefined,
            })}
            problems={deadlineProblems}
            zoneList="wf-timezones"
          />
          <datalist id="wf-timezones">
            {timeZoneNames().map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </fieldset>
        <Field
          id="wf-definition"
          label="Definition (JSON)"
          help={
            <>
              <code>name</code>, <code>appName</code>, <code>scheduleType</code> (NONE, CRON, FIX_RATE, ONCE),{' '}
              <code>scheduleConf</code>, <code>timeZone</code>, <code>misfireStrategy</code>, the schedule’s
              bounds <code>startAt</code>, <code>endAt</code>, <code>maxRuns</code> and its{' '}
              <code>jitterSeconds</code> (as a job’s), <code>calendars</code> (<code>only</code>: calendar ids
              whose working days alone fire; <code>exclude</code>: calendar ids whose excluded dates never
              fire), <code>overlapPolicy</code> (SKIP, BUFFER_ONE, ALLOW, CANCEL_PREVIOUS),{' '}
              <code>deadline</code> (<code>time</code> HH:MM, <code>timeZone</code>, <code>days</code> daily
              or weekdays; null: none) and <code>nodes</code>: each a <code>key</code>, a <code>jobId</code>{' '}
              of the group, an optional <code>executorParam</code> template and its <code>upstream</code>{' '}
              edges (<code>condition</code> ON_SUCCESS, ON_FAILURE or ALWAYS).
            </>
          }
        >
          <textarea
            id="wf-definition"
            class="wf-definition"
            spellcheck={false}
            autocomplete="off"
            rows={22}
            value={text}
            aria-describedby={`wf-definition-help${error ? ` ${problemsId}` : ''}`}
            aria-invalid={error ? true : undefined}
            onInput={(e) => edit(e.currentTarget.value)}
          />
        </Field>
        {error && <Problems id={problemsId} error={error} problemsRef={problemsRef} />}
        {saved && !error && (
          <div class="notice success-notice" role="status">
            Saved: version {saved.version}.
          </div>
        )}
        <div class="form-actions">
          <button type="submit" aria-busy={busy}>
            {submitLabel}
          </button>
          {dirty && !alwaysPreview && (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                setDirty(false);
                setText(initial);
                setBase(version);
                setError(undefined);
              }}
            >
              Discard changes
            </button>
          )}
          {children}
        </div>
      </fieldset>
      {showPreview && (
        <section aria-labelledby="wf-preview-heading">
          <PreviewHeading id="wf-preview-heading" class="subheading">
            Preview (as typed)
          </PreviewHeading>
          {preview ? (
            <>
              <EdgeLegend />
              <WorkflowGraph
                nodes={preview}
                label="The graph as typed"
                focusableFrame
                renderNode={(node) => (
                  <div class="wf-node">
                    <span class="wf-node-key">{node.key}</span>
                    <span class="wf-node-job">
                      {node.jobId === undefined ? 'no job' : `job #${node.jobId}`}
                    </span>
                  </div>
                )}
              />
            </>
          ) : (
            <p class="muted">Nothing to draw yet: the text is not JSON with a list of nodes.</p>
          )}
          {appName && <GroupJobs appName={appName} />}
        </section>
      )}
    </form>
  );
}

/** The server's problems, one line each, under the text (focused after a refused save). */
function Problems({
  id,
  error,
  problemsRef,
}: {
  id: string;
  error: ShownError;
  problemsRef: { current: HTMLDivElement | null };
}) {
  const lines = problemLines(error);
  const title =
    error.status === 409
      ? 'Not saved: the workflow changed since this text was read. Discard your changes to load it, or copy them first.'
      : error.status === undefined && lines.length === 1
        ? 'Not saved'
        : `Not saved: ${lines.length === 1 ? 'one problem' : `${lines.length} problems`}`;
  return (
    <div class="wf-problems" id={id} role="alert" tabIndex={-1} ref={problemsRef}>
      <strong>{title}</strong>
      <ul>
        {lines.map((line, i) => (
          <li key={`${i}:${line}`}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** The jobs of the group the text names (their ids go in `jobId`). */
function GroupJobs({ appName }: { appName: string }) {
  const jobs = useLoad(() => api().listJobs({ query: { appName, limit: 100 } }), `group-jobs:${appName}`);
  const items = (jobs.data?.items ?? []).filter((job) => job.executorHandler !== 'tickring.workflow');
  return (
    <details>
      <summary>Jobs of {appName} (their ids go in “jobId”)</summary>
      <ErrorNotice error={jobs.error} />
      {jobs.data && items.length === 0 && (
        <p class="muted">
          No jobs in {appName} yet.{' '}
          <Link href={`/jobs/new?appName=${encodeURIComponent(appName)}`}>Create one</Link>.
        </p>
      )}
      {items.length > 0 && (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col" class="num">
                  jobId
                </th>
                <th scope="col">Name</th>
                <th scope="col">Handler</th>
                <th scope="col" class="hide-narrow">
                  Its own parameter
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((job) => (
                <tr key={job.id}>
                  <td class="num mono">{job.id}</td>
                  <td>
                    <Link href={`/jobs/${job.id}`}>{job.name}</Link>
                  </td>
                  <td class="mono small">{job.executorHandler || '—'}</td>
                  <td class="hide-narrow wf-param">{job.executorParam || <span class="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </details>
  );
}

function appNameOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as { appName?: unknown };
    return typeof value?.appName === 'string' && value.appName.trim() !== '' ? value.appName : undefined;
  } catch {
    return undefined;
  }
}
