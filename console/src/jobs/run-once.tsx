import type { Job, TriggerAccepted, TriggerRequest } from '@tickring/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { ErrorNotice, Field } from '../components/common';
import { api, describeError, problemsFor, type ShownError } from '../lib/api';
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
 * addresses for this run only; afterwards, the run's logId and a link to it.
 */
export function RunOnceDialog({ job, onClose }: { job: Job | undefined; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [param, setParam] = useState('');
  const [addresses, setAddresses] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ShownError | undefined>();
  const [accepted, setAccepted] = useState<TriggerAccepted | undefined>();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (job) {
      setParam(job.executorParam);
      setAddresses('');
      setError(undefined);
      setAccepted(undefined);
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) {
      dialog.close();
    }
  }, [job]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!job) return;
    const body: TriggerRequest = {};
    // The job's own parameter is the default: send one only when it differs (even when emptied).
    if (param !== job.executorParam) body.executorParam = param;
    const list = addressesOf(addresses);
    if (list) body.addressList = list;
    setBusy(true);
    setError(undefined);
    try {
      setAccepted(await api().triggerJob({ path: { id: job.id }, body }));
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog ref={ref} class="job-dialog" onClose={onClose} aria-labelledby="run-once-title">
      {job && (
        <article>
          <h2 id="run-once-title">Run “{job.name}” once</h2>
          {accepted ? (
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
          ) : (
            <form onSubmit={submit}>
              <p class="muted">
                Fires the job now, whatever its schedule and status. The overrides apply to this run only.
              </p>
              {problemsFor(error, 'executorParam').length + problemsFor(error, 'addressList').length ===
                0 && <ErrorNotice error={error} title="Not started" />}
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
              <footer>
                <button type="button" class="secondary" onClick={onClose}>
                  Cancel
                </button>
                <button type="submit" aria-busy={busy} disabled={busy}>
                  Run now
                </button>
              </footer>
            </form>
          )}
        </article>
      )}
    </dialog>
  );
}
