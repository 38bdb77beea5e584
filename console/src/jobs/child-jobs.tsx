import type { Job } from '@tickring/client';
import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/common';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';
import './jobs.css';

/** Most jobs of a group read for the picker (5 pages of 100). */
const MAX_JOBS = 500;

async function groupJobs(appName: string): Promise<{ jobs: Job[]; truncated: boolean }> {
  const jobs: Job[] = [];
  for await (const job of api().paginate('listJobs', { query: { appName, limit: 100 } })) {
    jobs.push(job);
    if (jobs.length >= MAX_JOBS) return { jobs, truncated: true };
  }
  return { jobs, truncated: false };
}

/**
 * Child jobs picked by name: a checkbox per job of the group (this job left out), stored as ids. Ids
 * picked before that are not in the list (another group's jobs) stay listed by id.
 */
export function ChildJobsPicker({
  appName,
  selfId,
  value,
  onChange,
  disabled,
  problems,
}: {
  appName: string;
  selfId: number | undefined;
  value: readonly number[];
  onChange: (ids: number[]) => void;
  disabled: boolean;
  problems: readonly string[];
}) {
  const [filter, setFilter] = useState('');
  const loaded = useLoad(
    () => (appName ? groupJobs(appName) : Promise.resolve({ jobs: [], truncated: false })),
    `children:${appName}`,
  );
  const candidates = (loaded.data?.jobs ?? []).filter((j) => j.id !== selfId);
  const listed = new Set(candidates.map((j) => j.id));
  const others = value.filter((id) => !listed.has(id));
  const words = filter.trim().toLowerCase();
  const shown = words
    ? candidates.filter((j) => `${j.name} #${j.id}`.toLowerCase().includes(words))
    : candidates;
  const toggle = (id: number, on: boolean) =>
    onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id));
  const invalid = problems.length > 0;

  return (
    <fieldset
      class={`field child-jobs-field${invalid ? ' invalid' : ''}`}
      id="job-childJobIds"
      aria-describedby="job-childJobIds-help"
      tabIndex={-1}
    >
      <legend>Child jobs</legend>
      {candidates.length > 8 && (
        <input
          type="search"
          aria-label="Find a child job by name"
          placeholder="Find a job by name"
          value={filter}
          onInput={(e) => setFilter(e.currentTarget.value)}
          disabled={disabled}
        />
      )}
      <ErrorNotice error={loaded.error} title="The group’s jobs could not be read" />
      <div class="child-jobs" aria-busy={loaded.loading}>
        {!appName ? (
          <p class="muted">Pick a group first.</p>
        ) : candidates.length === 0 && others.length === 0 && !loaded.loading ? (
          <p class="muted">No other jobs in {appName} yet.</p>
        ) : (
          <ul>
            {others.map((id) => (
              <li key={`other-${id}`}>
                <label>
                  <input
                    type="checkbox"
                    checked
                    disabled={disabled}
                    onChange={(e) => toggle(id, e.currentTarget.checked)}
                  />{' '}
                  Job #{id} <span class="muted">(not in {appName})</span>
                </label>
              </li>
            ))}
            {shown.map((job) => (
              <li key={job.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={value.includes(job.id)}
                    disabled={disabled}
                    onChange={(e) => toggle(job.id, e.currentTarget.checked)}
                  />{' '}
                  {job.name} <span class="muted">#{job.id}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {loaded.data?.truncated && (
          <p class="muted small">Only the first {MAX_JOBS} jobs of the group are listed.</p>
        )}
      </div>
      <small id="job-childJobIds-help" class="help muted">
        Jobs triggered when a run of this one succeeds; no cycles, not the job itself.
        {value.length > 0 && ` ${value.length} picked.`}
      </small>
      {invalid && (
        <small class="field-error" role="alert">
          {problems.join(' ')}
        </small>
      )}
    </fieldset>
  );
}
