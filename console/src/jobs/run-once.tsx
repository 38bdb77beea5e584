import type { Job, TriggerAccepted, TriggerRequest } from '@tickring/client';
import { useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Field } from '../components/common';
import { Dialog, DialogButtons } from '../components/dialog';
import { api } from '../lib/api';
import { problemsFor, unplacedError } from '../lib/field-problems';
import { useAction } from '../lib/hooks';
import './jobs.css';

/** The addresses typed (separated by commas, spaces or lines), or undefined for none. */
export function addressesOf(text: string): string[] | undefined {
  const list = text
    .split(/[\s,]+/)
    .map((a) => a.trim())
    .filter((a) => a !== '');
  return list.length > 0 ? list : undefined;
}

/**
 * "Run once" (XXL-JOB's execute once): a MANUAL fire now, with an optional parameter and executor
 * addresses for this run only; afterwards, the run's logId and a link to it. Open while `job` is set.
 */
export function RunOnceDialog({ job, onClose }: { job: Job | undefined; onClose: () => void }) {
  return (
    <Dialog
      open={job !== undefined}
      title={job && <>Run “{job.name}” once</>}
      onClose={onClose}
      class="job-dialog"
    >
      {job && <RunOnceForm key={job.id} job={job} onClose={onClose} />}
    </Dialog>
  );
}

function RunOnceForm({ job, onClose }: { job: Job; onClose: () => void }) {
  const [param, setParam] = useState(job.executorParam);
  const [addresses, setAddresses] = useState('');
  const [accepted, setAccepted] = useState<TriggerAccepted | undefined>();
  const { busy, error, run } = useAction(async (body: TriggerRequest) =>
    setAccepted(await api().triggerJob({ path: { id: job.id }, body })),
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    const body: TriggerRequest = {};
    // The job's own parameter is the default: send one only when it differs (even when emptied).
    if (param !== job.executorParam) body.executorParam = param;
    const list = addressesOf(addresses);
    if (list) body.addressList = list;
    await run(body);
  };

  if (accepted) {
    return (
      <>
        <div class="notice success-notice" role="status">
          <p>
            Run started: logId <strong class="mono">{accepted.logId}</strong>
            {accepted.logIds.length > 1 && ` (and ${accepted.logIds.length - 1} more shards)`}.
          </p>
          <ul>
            {accepted.logIds.map((logId) => (
              <li key={logId}>
                <Link href={`/runs/${logId}`}>See run {logId}</Link>
              </li>
            ))}
          </ul>
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
        Fires the job now, whatever its schedule and status. The overrides apply to this run only.
      </p>
      <ErrorNotice error={unplacedError(error, ['executorParam', 'addressList'])} title="Not started" />
      <Field
        id="run-once-param"
        label="Parameter"
        help="Replaces the job’s parameter for this run (also when emptied)."
        problems={problemsFor(error, 'executorParam')}
      >
        <textarea
          id="run-once-param"
          rows={3}
          value={param}
          aria-describedby="run-once-param-help"
          onInput={(e) => setParam(e.currentTarget.value)}
        />
      </Field>
      <Field
        id="run-once-addresses"
        label="Executor addresses (optional)"
        help="Send this run to these executors instead of the group’s: http(s) URLs or lambda:<function>, separated by commas."
        problems={problemsFor(error, 'addressList')}
      >
        <input
          id="run-once-addresses"
          type="text"
          value={addresses}
          placeholder="http://10.0.0.5:9999/"
          aria-describedby="run-once-addresses-help"
          onInput={(e) => setAddresses(e.currentTarget.value)}
        />
      </Field>
      <DialogButtons confirmLabel="Run now" busy={busy} onCancel={onClose} />
    </form>
  );
}
