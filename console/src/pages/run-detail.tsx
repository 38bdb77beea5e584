import type { KilledRun, Run } from '@tickring/client';
import { useEffect, useState } from 'preact/hooks';
import { Link } from 'wouter-preact';
import { Empty, ErrorNotice, PageHeader } from '../components/common';
import { ConfirmDialog } from '../components/dialog';
import { Fact, RelativeAndExactTime } from '../components/facts';
import { api } from '../lib/api';
import { canOperate, useAuth } from '../lib/auth';
import { useAction, useLoad } from '../lib/hooks';
import { LiveLog } from '../runs/live-log';
import { ExecutorAddress, RunDuration, RunLateness, RunLink, RunStatus } from '../runs/run-cells';
import { rangeClockText, skippedRange } from '../runs/skipped-range';
import { handleCodeText, messageLines, triggerCodeText } from '../runs/timing';

/** One run: its facts, its live log, and Kill while it runs. */
export function RunDetailPage({ params }: { params: { logId: string } }) {
  const logId = Number(params.logId);
  const valid = /^\d+$/.test(params.logId) && Number.isSafeInteger(logId) && logId > 0;
  if (!valid) {
    return (
      <>
        <PageHeader title="Run not found" />
        <Empty title={`"${params.logId}" is not a run id`}>
          <p>
            <Link href="/runs">See all runs</Link>
          </p>
        </Empty>
      </>
    );
  }
  // A new run starts afresh (its kill state, its log).
  return <RunDetail key={logId} logId={logId} />;
}

function RunDetail({ logId }: { logId: number }) {
  const { me } = useAuth();
  const [running, setRunning] = useState(false);
  const run = useLoad(() => api().getRun({ path: { logId } }), `run:${logId}`, running ? 2000 : undefined);
  const data = run.data;
  useEffect(() => setRunning(data?.status === 'running'), [data?.status]);

  const [confirming, setConfirming] = useState(false);
  const [killed, setKilled] = useState<KilledRun | undefined>();
  const killing = useAction(async () => setKilled(await api().killRun({ path: { logId } })));
  const kill = async () => {
    await killing.run();
    setConfirming(false);
    run.reload();
  };

  if (!data) {
    return (
      <>
        <PageHeader title={`Run ${logId}`} />
        <ErrorNotice error={run.error} />
        {run.loading && <p aria-busy="true">Loading the run…</p>}
        {run.error?.status === 404 && (
          <p>
            <Link href="/runs">See all runs</Link>
          </p>
        )}
      </>
    );
  }

  const shown: Run = killed && killed.logId === data.logId && data.status === 'running' ? killed : data;
  const mayKill = shown.status === 'running' && canOperate(me, shown.appName);
  return (
    <>
      <PageHeader
        title={
          <>
            Run <span class="mono">{logId}</span> <RunStatus run={shown} />
          </>
        }
      >
        <Link href={`/runs?jobId=${shown.jobId}`} role="button" class="secondary small">
          Runs of this job
        </Link>
        {mayKill && (
          <button type="button" class="danger small" onClick={() => setConfirming(true)}>
            Kill run
          </button>
        )}
      </PageHeader>
      <ErrorNotice error={run.error} />
      {killed && (
        <div class="notice" role="status">
          Run {killed.logId} was killed: it is recorded as failed ("{killed.handleMsg}") and will not be
          retried.
          {killed.executorMsg && <> The executor said: {killed.executorMsg}</>}
        </div>
      )}
      <ErrorNotice error={killing.error} title="Kill" />
      <RunFacts run={shown} />
      <LiveLog logId={logId} onEnded={run.reload} />
      <TriggerResult run={shown} />
      <ConfirmDialog
        open={confirming}
        title={`Kill run ${logId}?`}
        confirmLabel="Kill run"
        danger
        busy={killing.busy}
        onConfirm={() => void kill()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          The run of <strong>{shown.jobName}</strong> on <ExecutorAddress address={shown.executorAddress} />{' '}
          is recorded as failed ("killed by user") and is not retried. The executor stops the job's worker:
          runs of the same job queued behind this one there fail too.
        </p>
      </ConfirmDialog>
    </>
  );
}

function Message({ text }: { text: string }) {
  const lines = messageLines(text);
  if (lines.length === 0) return <div class="muted">no message</div>;
  if (lines.length === 1) return <div>{lines[0]}</div>;
  return <pre class="log-view">{lines.join('\n')}</pre>;
}

const COLUMNS = {
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 26rem), 1fr))',
  gap: '0 2rem',
};

function RunFacts({ run }: { run: Run }) {
  const range = skippedRange(run);
  return (
    <section aria-label="Facts">
      <div style={COLUMNS}>
        <dl class="facts">
          <Fact term="Job">
            <Link href={`/jobs/${run.jobId}`}>{run.jobName || `Job ${run.jobId}`}</Link>{' '}
            <span class="muted">#{run.jobId}</span>
          </Fact>
          <Fact term="Group">
            <span class="mono">{run.appName}</span>
          </Fact>
          <Fact term="Status">
            <RunStatus run={run} />
            {range && (
              <span class="muted small">
                {' '}
                ({range.count} fires of the job, due {rangeClockText(range)}, skipped and recorded as this one
                run)
              </span>
            )}
          </Fact>
          <Fact term="Trigger type">{run.triggerType}</Fact>
          <Fact term="Executor">
            <ExecutorAddress address={run.executorAddress} />{' '}
            <span class="muted small">(route {run.executorRouteStrategy})</span>
          </Fact>
          <Fact term="Handler">
            <span class="mono">{run.executorHandler || '—'}</span>
          </Fact>
          <Fact term="Parameter">
            {run.executorParam ? (
              <span class="mono">{run.executorParam}</span>
            ) : (
              <span class="muted">none</span>
            )}
          </Fact>
          <Fact term="Shard">{run.shard}</Fact>
          <Fact term="Attempt">
            {run.attempt === 1 ? 'first try' : `retry ${run.attempt - 1}`} (attempt {run.attempt},{' '}
            {run.retriesLeft === 1 ? '1 retry' : `${run.retriesLeft} retries`} left)
          </Fact>
          <Fact term="Parent run">
            {run.parentLogId === null ? <span class="muted">none</span> : <RunLink logId={run.parentLogId} />}
          </Fact>
          {run.workflow === null ? null : (
            <Fact term="Workflow run">
              <Link
                href={`/workflows/runs/${run.workflow.runId}?node=${encodeURIComponent(run.workflow.node)}`}
              >
                {run.workflow.runId}
              </Link>
              , node {run.workflow.node} (attempt {run.workflow.attempt})
            </Fact>
          )}
          <Fact term="Timeout">{run.executorTimeout > 0 ? `${run.executorTimeout} s` : 'none'}</Fact>
        </dl>
        <dl class="facts">
          <Fact term={range ? 'Scheduled (first fire)' : 'Scheduled'}>
            <RelativeAndExactTime at={run.scheduledTime} />
          </Fact>
          {range && (
            <Fact term="Last fire skipped">
              <RelativeAndExactTime at={range.last} />
            </Fact>
          )}
          <Fact term="Triggered">
            <RelativeAndExactTime at={run.triggerTime} />
          </Fact>
          <Fact term={run.triggerCode === 500 ? 'Refused' : 'Started'}>
            <RelativeAndExactTime at={run.dispatchedAt} />
          </Fact>
          <Fact term="Finished">
            <RelativeAndExactTime at={run.handleTime} />
          </Fact>
          <Fact term="Duration">
            <RunDuration run={run} />
          </Fact>
          <Fact term="Lateness">
            <RunLateness run={run} /> <span class="muted small">(started − scheduled)</span>
          </Fact>
          <Fact term="Handle result">
            {run.handleCode} · {handleCodeText(run.handleCode)}
            {run.handleMsg ? <Message text={run.handleMsg} /> : null}
          </Fact>
          <Fact term="Alarm">{run.alarmStatus}</Fact>
          <Fact term="Fire">
            <span class="mono">{run.dedupKey}</span>
          </Fact>
        </dl>
      </div>
    </section>
  );
}

/** How the trigger went: its code, and its message with the route trail (as lines of text). */
function TriggerResult({ run }: { run: Run }) {
  return (
    <section aria-labelledby="trigger-heading">
      <h2 id="trigger-heading">Trigger</h2>
      <p>
        {run.triggerCode} · {triggerCodeText(run.triggerCode)}
      </p>
      <Message text={run.triggerMsg} />
    </section>
  );
}
