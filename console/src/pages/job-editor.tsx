import type { Job } from '@tickring/client';
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Link, useLocation, useSearch } from 'wouter-preact';
import { ChoiceSelect, ErrorNotice, Field, PageHeader } from '../components/common';
import { groupChoices } from '../components/filters';
import { AlertChannelPicker, useAlertChannels } from '../jobs/alert-channel-picker';
import { CalendarPicker } from '../jobs/calendar-picker';
import { ChildJobsPicker } from '../jobs/child-jobs';
import { readSchedule } from '../jobs/cron-text';
import { DeadlineFields } from '../jobs/deadline-fields';
import {
  ALERT_ROUTINGS,
  BLOCK_STRATEGIES,
  createBody,
  FIELDS,
  type FormField,
  fieldProblems,
  formFromJob,
  GLUE_TYPES,
  type JobForm,
  MISFIRE_STRATEGIES,
  newJobForm,
  PAUSE_MODES,
  type PauseMode,
  ROUTE_STRATEGIES,
  SCHEDULE_CONF,
  SCHEDULE_TYPES,
  type ScheduleType,
  summaryOf,
  updateBody,
} from '../jobs/job-form';
import { JobNotRead, useJob } from '../jobs/job-loader';
import { RetentionEstimate } from '../jobs/retention-estimate';
import { FireTimes, type PreviewState, useSchedulePreview } from '../jobs/schedule-preview';
import { describeZone, timeZoneNames } from '../jobs/time-zones';
import { api, type ShownError } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { problemsFor } from '../lib/field-problems';
import { viewerTimeZone } from '../lib/format';
import { useAction, useLoad } from '../lib/hooks';
import '../jobs/jobs.css';

/** /jobs/new and /jobs/:id/edit. */
export function JobEditorPage({ params }: { params?: { id?: string } }) {
  const id = params?.id === undefined ? undefined : Number(params.id);
  if (id === undefined) return <JobEditor />;
  return <EditJob id={id} />;
}

function EditJob({ id }: { id: number }) {
  const job = useJob(id);
  if (job.data) return <JobEditor key={job.data.id} job={job.data} />;
  return <JobNotRead title={`Edit job ${id}`} job={job} />;
}

const fieldId = (field: FormField) => `job-${field}`;

/** The form fields the preview also checks (the bounds, the jitter, the calendars). */
const BOUND_FIELDS: readonly FormField[] = ['startAt', 'endAt', 'maxRuns', 'jitterSeconds', 'calendars'];

function JobEditor({ job }: { job?: Job }) {
  const { me } = useAuth();
  const [, navigate] = useLocation();
  const search = useSearch();
  const groups = useLoad(() => api().listGroups(), 'groups');
  const alertChannels = useAlertChannels(me?.permissions.admin === true);
  const [form, setForm] = useState<JobForm>(() =>
    job
      ? formFromJob(job)
      : newJobForm({
          appName: new URLSearchParams(search).get('appName') ?? '',
          author: me?.username ?? me?.displayName ?? me?.name ?? '',
          timeZone: viewerTimeZone(),
        }),
  );
  const {
    busy: saving,
    error: saveError,
    run: submit,
    setError: setSaveError,
  } = useAction(async (send: () => Promise<Job>) => {
    const saved = await send();
    navigate(`/jobs/${saved.id}`);
  });
  const summaryRef = useRef<HTMLDivElement>(null);
  // An existing job's preview counts its runs remaining, and its jitter is known (its id).
  const remaining =
    job && job.maxRuns !== null && String(job.maxRuns) === form.maxRuns.trim()
      ? String(job.runsRemaining ?? form.maxRuns)
      : form.maxRuns;
  const preview = useSchedulePreview(form.scheduleType, form.scheduleConf, form.timeZone, {
    startAt: form.startAt,
    endAt: form.endAt,
    maxRuns: remaining,
    jitterSeconds: form.jitterSeconds,
    calendars: form.calendars,
    ...(job ? { jobId: job.id } : {}),
  });

  const readOnly = job ? !canOperate(me, job.appName) : !canOperate(me);
  const glueAllowed = me?.permissions.glue === true || me?.permissions.admin === true;
  const operated = useMemo(
    () => (groups.data?.items ?? []).filter((g) => canOperate(me, g.appName) || g.appName === job?.appName),
    [groups.data, me, job],
  );

  // A new job in the first group the caller operates, when the URL named none.
  useEffect(() => {
    if (!job && form.appName === '' && operated[0]) set('appName', operated[0].appName);
  }, [operated]);

  useEffect(() => {
    if (saveError) summaryRef.current?.focus();
  }, [saveError]);

  function set<K extends FormField>(field: K, value: JobForm[K]) {
    setForm((f) => ({ ...f, [field]: value }));
  }

  /** The server's problems for a field: from the last save, and the live schedule preview. */
  const problems = (field: FormField): string[] => {
    const found = fieldProblems(saveError, field);
    // The bounds' problems the preview found (endAt before startAt, jitter too large) show as they are typed.
    if (preview.kind === 'invalid' && BOUND_FIELDS.includes(field)) {
      for (const message of problemsFor(preview.error, field))
        if (!found.includes(message)) found.push(message);
    }
    if (preview.kind === 'invalid' && (field === 'scheduleConf' || field === 'timeZone')) {
      let live = problemsFor(preview.error, field);
      // A refusal not about either field (a 403, no answer) goes next to the schedule.
      if (
        field === 'scheduleConf' &&
        live.length === 0 &&
        problemsFor(preview.error, 'timeZone').length === 0 &&
        !BOUND_FIELDS.some((b) => problemsFor(preview.error, b).length > 0)
      ) {
        live = [preview.error.message];
      }
      for (const message of live) if (!found.includes(message)) found.push(message);
    }
    return found;
  };
  const describedBy = (field: FormField, ...more: string[]) =>
    [`${fieldId(field)}-help`, ...more, problems(field).length > 0 ? `${fieldId(field)}-error` : '']
      .filter(Boolean)
      .join(' ');
  const inputProps = (field: FormField, ...more: string[]) => ({
    id: fieldId(field),
    'aria-describedby': describedBy(field, ...more),
    'aria-invalid': problems(field).length > 0 ? true : undefined,
  });

  const save = async (event: Event) => {
    event.preventDefault();
    if (readOnly) return;
    let send: () => Promise<Job>;
    if (job) {
      const made = updateBody(job, form);
      if ('error' in made) return setSaveError(made.error);
      // Nothing changed: nothing to send.
      if (made.changed.length === 0) return navigate(`/jobs/${job.id}`);
      send = () => api().updateJob({ path: { id: job.id }, body: made.body });
    } else {
      const made = createBody(form);
      if ('error' in made) return setSaveError(made.error);
      send = () => api().createJob({ body: made.body });
    }
    await submit(send);
  };

  const confMeta = SCHEDULE_CONF[form.scheduleType];
  const zoneText = describeZone(form.timeZone.trim());
  const isGlue = form.glueType !== 'BEAN';

  if (!job && readOnly) {
    return (
      <>
        <PageHeader title="New job" />
        <div class="notice">
          You may not create jobs: your role ({me?.role}) operates no executor group.{' '}
          <Link href="/jobs">Back to the jobs</Link>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title={job ? `Edit “${job.name}”` : 'New job'}>
        <Link href={job ? `/jobs/${job.id}` : '/jobs'} role="button" class="secondary">
          {job ? 'Back to the job' : 'Back to the jobs'}
        </Link>
      </PageHeader>
      {readOnly && (
        <div class="notice" role="note">
          You may read this job but not change it: your role ({me?.role}) does not operate the group{' '}
          {job?.appName}.
        </div>
      )}
      {saveError && <SaveSummary error={saveError} summaryRef={summaryRef} />}
      <ErrorNotice error={groups.error} title="The groups could not be read" />

      <form class="job-form" onSubmit={save} noValidate>
        <fieldset disabled={readOnly || saving}>
          <section aria-labelledby="job-sec-basics">
            <h2 id="job-sec-basics">Job</h2>
            <div class="grid">
              <Field
                id={fieldId('appName')}
                label={FIELDS.appName.label}
                help={FIELDS.appName.help}
                problems={problems('appName')}
              >
                <ChoiceSelect
                  {...inputProps('appName')}
                  value={form.appName}
                  required
                  choices={[
                    ...(form.appName === '' ? [{ value: '', label: 'Pick a group' }] : []),
                    ...groupChoices(operated, form.appName),
                  ]}
                  onChange={(v) => set('appName', v)}
                />
              </Field>
              <Field
                id={fieldId('name')}
                label={FIELDS.name.label}
                help={FIELDS.name.help}
                problems={problems('name')}
              >
                <input
                  {...inputProps('name')}
                  type="text"
                  required
                  maxLength={255}
                  value={form.name}
                  onInput={(e) => set('name', e.currentTarget.value)}
                />
              </Field>
            </div>
            <div class="grid">
              <Field
                id={fieldId('author')}
                label={FIELDS.author.label}
                help={FIELDS.author.help}
                problems={problems('author')}
              >
                <input
                  {...inputProps('author')}
                  type="text"
                  required
                  maxLength={64}
                  value={form.author}
                  onInput={(e) => set('author', e.currentTarget.value)}
                />
              </Field>
              <div />
            </div>
          </section>

          <section aria-labelledby="job-sec-schedule">
            <h2 id="job-sec-schedule">Schedule</h2>
            <div class="grid">
              <Field
                id={fieldId('scheduleType')}
                label={FIELDS.scheduleType.label}
                help={FIELDS.scheduleType.help}
                problems={problems('scheduleType')}
              >
                <ChoiceSelect
                  {...inputProps('scheduleType')}
                  choices={SCHEDULE_TYPES}
                  value={form.scheduleType}
                  onChange={(v) => set('scheduleType', v as ScheduleType)}
                />
              </Field>
              <Field
                id={fieldId('scheduleConf')}
                label={confMeta.label}
                help={<ScheduleHelp help={confMeta.help} form={form} preview={preview} />}
                problems={problems('scheduleConf')}
              >
                <input
                  {...inputProps('scheduleConf')}
                  type="text"
                  class="mono"
                  maxLength={128}
                  spellcheck={false}
                  autocomplete="off"
                  disabled={form.scheduleType === 'NONE'}
                  placeholder={confMeta.placeholder}
                  value={form.scheduleType === 'NONE' ? '' : form.scheduleConf}
                  onInput={(e) => set('scheduleConf', e.currentTarget.value)}
                />
              </Field>
            </div>
            <div class="grid">
              <Field
                id={fieldId('timeZone')}
                label={FIELDS.timeZone.label}
                help={`${FIELDS.timeZone.help}${zoneText ? ` ${form.timeZone.trim()}: ${zoneText}.` : ''}`}
                problems={problems('timeZone')}
              >
                <input
                  {...inputProps('timeZone')}
                  type="text"
                  list="job-timezones"
                  maxLength={64}
                  autocomplete="off"
                  spellcheck={false}
                  value={form.timeZone}
                  onInput={(e) => set('timeZone', e.currentTarget.value)}
                />
              </Field>
              <datalist id="job-timezones">
                {timeZoneNames().map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
              <Field
                id={fieldId('misfireStrategy')}
                label={FIELDS.misfireStrategy.label}
                help={FIELDS.misfireStrategy.help}
                problems={problems('misfireStrategy')}
              >
                <ChoiceSelect
                  {...inputProps('misfireStrategy')}
                  choices={MISFIRE_STRATEGIES}
                  value={form.misfireStrategy}
                  onChange={(v) => set('misfireStrategy', v as JobForm['misfireStrategy'])}
                />
              </Field>
            </div>
            <div class="grid">
              {(['startAt', 'endAt'] as const).map((field) => (
                <Field
                  key={field}
                  id={fieldId(field)}
                  label={FIELDS[field].label}
                  help={FIELDS[field].help}
                  problems={problems(field)}
                >
                  <input
                    {...inputProps(field)}
                    type="text"
                    class="mono"
                    spellcheck={false}
                    autocomplete="off"
                    placeholder="2030-01-01T00:00:00Z"
                    value={form[field]}
                    onInput={(e) => set(field, e.currentTarget.value)}
                  />
                </Field>
              ))}
            </div>
            <div class="grid">
              <Field
                id={fieldId('maxRuns')}
                label={FIELDS.maxRuns.label}
                help={`${FIELDS.maxRuns.help}${job && job.maxRuns !== null ? ` ${job.runsRemaining ?? 0} of ${job.maxRuns} left.` : ''}`}
                problems={problems('maxRuns')}
              >
                <input
                  {...inputProps('maxRuns')}
                  type="text"
                  inputMode="numeric"
                  value={form.maxRuns}
                  onInput={(e) => set('maxRuns', e.currentTarget.value)}
                />
              </Field>
              <Field
                id={fieldId('jitterSeconds')}
                label={FIELDS.jitterSeconds.label}
                help={FIELDS.jitterSeconds.help}
                problems={problems('jitterSeconds')}
              >
                <input
                  {...inputProps('jitterSeconds')}
                  type="text"
                  inputMode="numeric"
                  value={form.jitterSeconds}
                  onInput={(e) => set('jitterSeconds', e.currentTarget.value)}
                />
              </Field>
            </div>
            <CalendarPicker
              value={form.calendars}
              onChange={(picked) => set('calendars', picked)}
              disabled={readOnly || saving}
              problems={problems('calendars')}
              help={FIELDS.calendars.help}
            />
            <div class={`field${problems('triggerStatus').length > 0 ? ' invalid' : ''}`}>
              <label for={fieldId('triggerStatus')}>
                <input
                  {...inputProps('triggerStatus')}
                  type="checkbox"
                  role="switch"
                  checked={form.triggerStatus === 'RUNNING'}
                  aria-checked={form.triggerStatus === 'RUNNING'}
                  onChange={(e) => set('triggerStatus', e.currentTarget.checked ? 'RUNNING' : 'STOPPED')}
                />
                {FIELDS.triggerStatus.label}
              </label>
              <small id={`${fieldId('triggerStatus')}-help`} class="help">
                {FIELDS.triggerStatus.help}
              </small>
              {problems('triggerStatus').length > 0 && (
                <small id={`${fieldId('triggerStatus')}-error`} class="field-error" role="alert">
                  {problems('triggerStatus').join(' ')}
                </small>
              )}
            </div>
            <FireTimes state={preview} />
          </section>

          <section aria-labelledby="job-sec-execution">
            <h2 id="job-sec-execution">Execution</h2>
            <div class="grid">
              <Field
                id={fieldId('glueType')}
                label={FIELDS.glueType.label}
                help={
                  glueAllowed ? FIELDS.glueType.help : `${FIELDS.glueType.help} Scripts need the glue grant.`
                }
                problems={problems('glueType')}
              >
                <ChoiceSelect
                  {...inputProps('glueType')}
                  choices={
                    glueAllowed
                      ? GLUE_TYPES
                      : GLUE_TYPES.filter((g) => g.value === 'BEAN' || g.value === form.glueType)
                  }
                  value={form.glueType}
                  disabled={!glueAllowed}
                  onChange={(v) => set('glueType', v as JobForm['glueType'])}
                />
              </Field>
              {isGlue ? (
                <div />
              ) : (
                <Field
                  id={fieldId('executorHandler')}
                  label={FIELDS.executorHandler.label}
                  help={FIELDS.executorHandler.help}
                  problems={problems('executorHandler')}
                >
                  <input
                    {...inputProps('executorHandler')}
                    type="text"
                    class="mono"
                    maxLength={255}
                    spellcheck={false}
                    value={form.executorHandler}
                    onInput={(e) => set('executorHandler', e.currentTarget.value)}
                  />
                </Field>
              )}
            </div>
            {isGlue && (
              <Field
                id={fieldId('glueSource')}
                label={FIELDS.glueSource.label}
                help={FIELDS.glueSource.help}
                problems={problems('glueSource')}
              >
                <textarea
                  {...inputProps('glueSource')}
                  class="mono"
                  rows={10}
                  spellcheck={false}
                  disabled={!glueAllowed}
                  value={form.glueSource}
                  onInput={(e) => set('glueSource', e.currentTarget.value)}
                />
              </Field>
            )}
            <Field
              id={fieldId('executorParam')}
              label={FIELDS.executorParam.label}
              help={FIELDS.executorParam.help}
              problems={problems('executorParam')}
            >
              <textarea
                {...inputProps('executorParam')}
                rows={2}
                maxLength={2048}
                value={form.executorParam}
                onInput={(e) => set('executorParam', e.currentTarget.value)}
              />
            </Field>
            <div class="grid">
              <Field
                id={fieldId('executorRouteStrategy')}
                label={FIELDS.executorRouteStrategy.label}
                help={FIELDS.executorRouteStrategy.help}
                problems={problems('executorRouteStrategy')}
              >
                <ChoiceSelect
                  {...inputProps('executorRouteStrategy')}
                  choices={ROUTE_STRATEGIES}
                  value={form.executorRouteStrategy}
                  onChange={(v) => set('executorRouteStrategy', v as JobForm['executorRouteStrategy'])}
                />
              </Field>
              <Field
                id={fieldId('executorBlockStrategy')}
                label={FIELDS.executorBlockStrategy.label}
                help={FIELDS.executorBlockStrategy.help}
                problems={problems('executorBlockStrategy')}
              >
                <ChoiceSelect
                  {...inputProps('executorBlockStrategy')}
                  choices={BLOCK_STRATEGIES}
                  value={form.executorBlockStrategy}
                  onChange={(v) => set('executorBlockStrategy', v as JobForm['executorBlockStrategy'])}
                />
              </Field>
            </div>
            <div class="grid">
              {(['executorTimeout', 'executorFailRetryCount', 'retryBackoffSeconds'] as const).map(
                (field) => (
                  <Field
                    key={field}
                    id={fieldId(field)}
                    label={FIELDS[field].label}
                    help={FIELDS[field].help}
                    problems={problems(field)}
                  >
                    <input
                      {...inputProps(field)}
                      type="number"
                      min={0}
                      step={1}
                      inputMode="numeric"
                      value={form[field]}
                      onInput={(e) => set(field, e.currentTarget.value)}
                    />
                  </Field>
                ),
              )}
            </div>
          </section>

          <section aria-labelledby="job-sec-alarms">
            <h2 id="job-sec-alarms">Alarms</h2>
            <div class="grid">
              <Field
                id={fieldId('alarmEmail')}
                label={FIELDS.alarmEmail.label}
                help={FIELDS.alarmEmail.help}
                problems={problems('alarmEmail')}
              >
                <input
                  {...inputProps('alarmEmail')}
                  type="text"
                  inputMode="email"
                  maxLength={512}
                  placeholder="ops@example.com, oncall@example.com"
                  value={form.alarmEmail}
                  onInput={(e) => set('alarmEmail', e.currentTarget.value)}
                />
              </Field>
              <Field
                id={fieldId('alarmWebhook')}
                label={FIELDS.alarmWebhook.label}
                help={FIELDS.alarmWebhook.help}
                problems={problems('alarmWebhook')}
              >
                <input
                  {...inputProps('alarmWebhook')}
                  type="url"
                  maxLength={2048}
                  placeholder="https://hooks.example.com/tickring"
                  value={form.alarmWebhook}
                  onInput={(e) => set('alarmWebhook', e.currentTarget.value)}
                />
              </Field>
            </div>
            <AlertChannelPicker
              idPrefix="job"
              owner="job"
              legend={FIELDS.alertRouting.label}
              help={FIELDS.alertRouting.help}
              routings={ALERT_ROUTINGS}
              routing={form.alertRouting}
              value={form.alertChannels}
              onRouting={(routing) => set('alertRouting', routing)}
              onChange={(ids) => set('alertChannels', ids)}
              channels={alertChannels}
              disabled={readOnly || saving}
              routingProblems={problems('alertRouting')}
              channelProblems={problems('alertChannels')}
            />
          </section>

          <section aria-labelledby="job-sec-failures">
            <h2 id="job-sec-failures">When runs keep failing</h2>
            <div class="grid">
              <Field
                id={fieldId('pauseMode')}
                label={FIELDS.pauseMode.label}
                help={FIELDS.pauseMode.help}
                problems={problems('pauseMode')}
              >
                <ChoiceSelect
                  {...inputProps('pauseMode')}
                  choices={PAUSE_MODES}
                  value={form.pauseMode}
                  onChange={(v) => set('pauseMode', v as PauseMode)}
                />
              </Field>
              {form.pauseMode === 'off' ? (
                <div />
              ) : (
                <Field
                  id={fieldId('resumeAfterSeconds')}
                  label={FIELDS.resumeAfterSeconds.label}
                  help={FIELDS.resumeAfterSeconds.help}
                  problems={problems('resumeAfterSeconds')}
                >
                  <input
                    {...inputProps('resumeAfterSeconds')}
                    type="text"
                    inputMode="numeric"
                    placeholder="600"
                    value={form.resumeAfterSeconds}
                    onInput={(e) => set('resumeAfterSeconds', e.currentTarget.value)}
                  />
                </Field>
              )}
            </div>
            {form.pauseMode !== 'off' && (
              <div class="grid">
                <Field
                  id={fieldId('pauseFailures')}
                  label={form.pauseMode === 'consecutive' ? 'Failures in a row' : FIELDS.pauseFailures.label}
                  help={FIELDS.pauseFailures.help}
                  problems={problems('pauseFailures')}
                >
                  <input
                    {...inputProps('pauseFailures')}
                    type="text"
                    inputMode="numeric"
                    value={form.pauseFailures}
                    onInput={(e) => set('pauseFailures', e.currentTarget.value)}
                  />
                </Field>
                {form.pauseMode === 'ofLast' ? (
                  <Field
                    id={fieldId('pauseOfLast')}
                    label={FIELDS.pauseOfLast.label}
                    help={FIELDS.pauseOfLast.help}
                    problems={problems('pauseOfLast')}
                  >
                    <input
                      {...inputProps('pauseOfLast')}
                      type="text"
                      inputMode="numeric"
                      value={form.pauseOfLast}
                      onInput={(e) => set('pauseOfLast', e.currentTarget.value)}
                    />
                  </Field>
                ) : (
                  <div />
                )}
              </div>
            )}
            <DeadlineFields
              value={{
                deadlineTime: form.deadlineTime,
                deadlineZone: form.deadlineZone,
                deadlineDays: form.deadlineDays,
              }}
              onChange={(deadline) => setForm((f) => ({ ...f, ...deadline }))}
              fieldId={fieldId}
              inputProps={inputProps}
              problems={problems}
              zoneList="job-timezones"
            />
          </section>

          <section aria-labelledby="job-sec-children">
            <h2 id="job-sec-children">After a success</h2>
            <ChildJobsPicker
              appName={form.appName}
              selfId={job?.id}
              value={form.childJobIds}
              onChange={(ids) => set('childJobIds', ids)}
              disabled={readOnly || saving}
              problems={problems('childJobIds')}
            />
          </section>

          <section aria-labelledby="job-sec-history">
            <h2 id="job-sec-history">Run history</h2>
            <div class="grid">
              {(['logRetentionDays', 'keepSuccessfulRuns'] as const).map((field) => (
                <Field
                  key={field}
                  id={fieldId(field)}
                  label={FIELDS[field].label}
                  help={
                    field === 'logRetentionDays' && job?.retention && job.logRetentionDays === null
                      ? `${FIELDS[field].help} Here: ${job.retention.days} days.`
                      : FIELDS[field].help
                  }
                  problems={problems(field)}
                >
                  <input
                    {...inputProps(field, 'job-retention-estimate')}
                    type="text"
                    inputMode={field === 'logRetentionDays' ? 'numeric' : 'decimal'}
                    placeholder={field === 'logRetentionDays' ? 'default' : '100'}
                    value={form[field]}
                    onInput={(e) => set(field, e.currentTarget.value)}
                  />
                </Field>
              ))}
            </div>
            <p class="muted small retention-estimate">
              {job?.retention ? (
                <>
                  As saved. <RetentionEstimate estimate={job.retention} id="job-retention-estimate" /> A saved
                  change shows its new estimate on the job’s page.
                </>
              ) : (
                <span id="job-retention-estimate">
                  The job’s page shows what keeping its history costs (an estimate) once it is saved.
                </span>
              )}
            </p>
          </section>

          {!readOnly && (
            <div class="form-actions">
              <button type="submit" aria-busy={saving}>
                {job ? 'Save changes' : 'Create job'}
              </button>
              <Link href={job ? `/jobs/${job.id}` : '/jobs'} role="button" class="secondary">
                Cancel
              </Link>
            </div>
          )}
        </fieldset>
      </form>
    </>
  );
}

/** Every problem of a refused save at the top, each a link to its field. */
function SaveSummary({
  error,
  summaryRef,
}: {
  error: ShownError;
  summaryRef: { current: HTMLDivElement | null };
}) {
  const items = summaryOf(error);
  const title =
    error.status === 409
      ? 'Not saved: someone changed this job since you opened it. Reload the page to edit the new version.'
      : `Not saved: ${items.length === 1 ? 'one problem' : `${items.length} problems`}`;
  return (
    <div class="notice error form-summary" role="alert" tabIndex={-1} ref={summaryRef}>
      <strong>{title}</strong>
      <ul>
        {items.map((item, i) => (
          <li key={`${i}:${item.message}`}>
            {item.field ? (
              <a
                href={`#${fieldId(item.field)}`}
                onClick={(e) => {
                  e.preventDefault();
                  const el = document.getElementById(fieldId(item.field!));
                  el?.scrollIntoView({ block: 'center' });
                  el?.focus();
                }}
              >
                {FIELDS[item.field].label}
              </a>
            ) : null}
            {item.field ? ': ' : ''}
            {item.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The schedule's help: what to type, the cron in words, and whether the server takes it. */
function ScheduleHelp({ help, form, preview }: { help: string; form: JobForm; preview: PreviewState }) {
  const reading = readSchedule(form.scheduleType, form.scheduleConf, form.timeZone.trim() || undefined);
  let status: ComponentChildren = null;
  if (form.scheduleType !== 'NONE') {
    if (preview.kind === 'checking') status = <span class="muted">Checking…</span>;
    else if (preview.kind === 'valid') status = <span class="schedule-valid">✓ Valid.</span>;
    else if (preview.kind === 'invalid')
      status = <span class="schedule-invalid">✗ Not valid (see below).</span>;
  }
  return (
    <>
      {help}
      <span class="schedule-reading" role="status">
        {status}{' '}
        {preview.kind !== 'invalid' && reading.ok && form.scheduleConf.trim() !== '' && (
          <strong>{reading.text}</strong>
        )}
        {form.scheduleType === 'NONE' && reading.ok && <strong>{reading.text}</strong>}
      </span>
    </>
  );
}
