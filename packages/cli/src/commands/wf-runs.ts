/**
 * `tickring wf-runs ls|get|retry|cancel`: runs of workflows (`/v1/workflow-runs`), and waiting for one
 * to end (`workflows trigger --wait`, `wf-runs retry --wait`).
 */
import type { TickringClient, WorkflowRun, WorkflowRunNode, WorkflowRunSummary } from '@tickring/client';
import type { Command } from 'commander';
import { type ActionRunner, abortable, type Context, sleep } from '../context.js';
import { EXIT, InterruptedError } from '../errors.js';
import { clip, formatDuration, toMillis, zonedParts } from '../output.js';
import { examples, intIn, oneOf, positiveId, workflowRunId } from './args.js';
import { readUpTo } from './paging.js';

const RUN_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
const NODE_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED', 'CANCELLED'] as const;
const ENDED: ReadonlySet<string> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

interface LsOptions {
  readonly workflow?: number;
  readonly app?: string;
  readonly status?: WorkflowRun['status'];
  readonly limit: number;
  readonly cursor?: string;
}

export function registerWorkflowRuns(program: Command, run: ActionRunner): void {
  const runs = program
    .command('wf-runs')
    .description('runs of workflows: list, show with their nodes, retry, cancel')
    .addHelpText(
      'after',
      examples(
        'tickring wf-runs ls --workflow 3 --status FAILED',
        'tickring wf-runs get wr-m5x8k2a1-3f9c1d2e6b8a',
        'tickring wf-runs retry wr-m5x8k2a1-3f9c1d2e6b8a --wait',
      ),
    );

  runs
    .command('ls')
    .alias('list')
    .description('list workflow runs, newest first')
    .option('--workflow <id>', "only this workflow's runs", positiveId)
    .option('--app <appName>', "only the runs of this group's workflows")
    .option('--status <status>', RUN_STATUSES.join(', '), oneOf(RUN_STATUSES))
    .option('--limit <n>', 'how many runs at most', intIn(1, 10_000), 20)
    .option('--cursor <cursor>', 'go on where an earlier listing stopped (its nextCursor)')
    .addHelpText(
      'after',
      `${examples(
        'tickring wf-runs ls',
        'tickring wf-runs ls --workflow 3 --status failed',
        'tickring wf-runs ls --app my-app --limit 100 --json | jq -r ".items[] | [.id, .status] | @tsv"',
      )}\nWith --json: {"items": [...], "nextCursor"} as the API pages it, nextCursor where the listing stopped.\n`,
    )
    .action(
      run<LsOptions>(async (ctx, _args, opts) => {
        const client = await ctx.client();
        const base = {
          ...(opts.workflow === undefined ? {} : { workflowId: opts.workflow }),
          ...(opts.app === undefined ? {} : { appName: opts.app }),
          ...(opts.status === undefined ? {} : { status: opts.status }),
        };
        const { items, nextCursor } = await readUpTo(opts.limit, opts.cursor, (page) =>
          client.listWorkflowRuns({ query: { ...base, ...page } }),
        );

        if (ctx.json) return ctx.out.json({ items, nextCursor });
        if (items.length === 0) ctx.out.note('No workflow runs found.');
        else {
          ctx.out.table(
            ['RUN ID', 'WORKFLOW', 'STATUS', 'TRIGGER', 'STARTED', 'TOOK', 'NODES', 'FAILED NODES'],
            items.map((r) => [
              r.id,
              `${r.workflowId} ${clip(r.workflowName, 24)}`,
              ctx.out.status(r.status),
              triggerText(r),
              ctx.out.shortWhen(r.startedAt ?? r.createdAt),
              took(r),
              countsText(r.nodeCounts),
              r.failedNodes.length === 0 ? '-' : clip(r.failedNodes.join(', '), 32),
            ]),
          );
        }
        if (nextCursor) {
          ctx.out.note(ctx.out.ce.dim(`More runs: a higher --limit, or go on with --cursor ${nextCursor}`));
        }
      }),
    );

  runs
    .command('get')
    .description('show one workflow run and its nodes')
    .argument('<runId>', "the run's id (wr-…)", workflowRunId)
    .addHelpText(
      'after',
      examples(
        'tickring wf-runs get wr-m5x8k2a1-3f9c1d2e6b8a',
        'tickring wf-runs get wr-m5x8k2a1-3f9c1d2e6b8a --json',
      ),
    )
    .action(
      run(async (ctx, [runId]) => {
        const client = await ctx.client();
        const r = await client.getWorkflowRun({ path: { runId: runId as string } });
        if (ctx.json) return ctx.out.json(r);
        showWorkflowRun(ctx, r);
      }),
    );

  runs
    .command('retry')
    .description(
      'resume a FAILED or CANCELLED run: its unhandled failed, cancelled and skipped-because-of-them nodes run again',
    )
    .argument('<runId>', "the run's id (wr-…)", workflowRunId)
    .option('--wait', 'wait for the run to end (as workflows trigger --wait)')
    .addHelpText(
      'after',
      examples(
        'tickring wf-runs retry wr-m5x8k2a1-3f9c1d2e6b8a',
        'tickring wf-runs retry wr-m5x8k2a1-3f9c1d2e6b8a --wait && echo succeeded',
      ),
    )
    .action(
      run<{ wait?: boolean }>(async (ctx, [runId], opts) => {
        const client = await ctx.client();
        const r = await client.retryWorkflowRun({ path: { runId: runId as string } });
        if (ctx.json) {
          if (opts.wait) ctx.out.print(`${JSON.stringify(r)}\n`);
          else ctx.out.json(r);
        } else {
          const again = r.nodes
            .filter((n) => n.status === 'RUNNING' || n.status === 'PENDING')
            .map((n) => n.key);
          ctx.out.line(
            `Run ${r.id} ${ctx.out.status(r.status)} again${again.length === 0 ? '' : `: ${again.join(', ')} to run`}`,
          );
        }
        if (opts.wait) return waitForWorkflowRun(ctx, client, r);
      }),
    );

  runs
    .command('cancel')
    .description("cancel a run: its pending nodes are cancelled, its running nodes' job runs killed")
    .argument('<runId>', "the run's id (wr-…)", workflowRunId)
    .addHelpText('after', examples('tickring wf-runs cancel wr-m5x8k2a1-3f9c1d2e6b8a'))
    .action(
      run(async (ctx, [runId]) => {
        const client = await ctx.client();
        const r = await client.cancelWorkflowRun({ path: { runId: runId as string } });
        if (ctx.json) return ctx.out.json(r);
        const killed = r.nodes.filter((n) => n.status === 'RUNNING').map((n) => n.key);
        const cancelled = r.nodes.filter((n) => n.status === 'CANCELLED').map((n) => n.key);
        ctx.out.line(`Run ${r.id} ${ctx.out.status(r.status)}.`);
        if (cancelled.length > 0) ctx.out.line(`  not run: ${cancelled.join(', ')}`);
        if (killed.length > 0)
          ctx.out.line(`  killed (their outcomes are still recorded): ${killed.join(', ')}`);
      }),
    );
}

/**
 * Polls the run until it ends, noting each node's status as it changes (stderr); then the outcome (or
 * with --json the ended run, one line). Exit 0 when it SUCCEEDED, 1 when it FAILED or was CANCELLED,
 * 130 on Ctrl-C (the run goes on).
 */
export async function waitForWorkflowRun(
  ctx: Context,
  client: TickringClient,
  first: WorkflowRun,
  pollMs = 500,
): Promise<number> {
  const { signal, release } = ctx.interruptible();
  const { out } = ctx;
  const seen = new Map<string, string>();
  const width = Math.max(0, ...first.nodes.map((n) => n.key.length));
  let runStatus = first.status;
  try {
    let r = first;
    for (;;) {
      if (r.status !== runStatus) {
        runStatus = r.status;
        if (!ENDED.has(r.status)) out.note(`${stamp(ctx)}  run ${out.status(r.status, out.ce)}`);
      }
      for (const n of r.nodes) {
        const state = `${n.status}#${n.attempt}`;
        const before = seen.get(n.key);
        seen.set(n.key, state);
        if (state === before || (before === undefined && n.status === 'PENDING')) continue;
        out.note(`${stamp(ctx)}  ${n.key.padEnd(width)}  ${out.status(n.status, out.ce)}${nodeDetail(n)}`);
      }
      if (ENDED.has(r.status)) {
        if (ctx.json) out.print(`${JSON.stringify(r)}\n`);
        else out.note(outcomeLine(ctx, r));
        return r.status === 'SUCCEEDED' ? EXIT.ok : EXIT.failed;
      }
      await sleep(pollMs, signal);
      r = await abortable(client.getWorkflowRun({ path: { runId: r.id } }), signal);
    }
  } catch (err) {
    if (signal.aborted) {
      out.note(
        out.ce.dim(
          `Stopped waiting for run ${first.id}; it goes on (tickring wf-runs cancel ${first.id} stops it).`,
        ),
      );
      throw new InterruptedError();
    }
    throw err;
  } finally {
    release();
  }
}

function stamp(ctx: Context): string {
  return ctx.out.ce.dim(zonedParts(ctx.out.now(), ctx.out.zone).time);
}

/** What a progress line adds to a node's status: its attempt, job runs, result or reason. */
function nodeDetail(n: WorkflowRunNode): string {
  const parts: string[] = [];
  if (n.attempt > 1) parts.push(`attempt ${n.attempt}`);
  if (n.logIds.length > 0 && n.status !== 'PENDING') parts.push(`run ${logIdsText(n.logIds)}`);
  const info = n.status === 'SUCCEEDED' || n.status === 'FAILED' ? n.result : n.reason;
  return `${parts.length > 0 ? ` (${parts.join(', ')})` : ''}${info ? `: ${clip(info, 80)}` : ''}`;
}

/** "Run wr-… SUCCEEDED in 2.3 s", with the failed nodes when it FAILED; for stderr. */
function outcomeLine(ctx: Context, r: WorkflowRun): string {
  const span = took(r);
  const failed = r.failedNodes.length > 0 ? `: failed nodes ${r.failedNodes.join(', ')}` : '';
  return `Run ${r.id} ${ctx.out.status(r.status, ctx.out.ce)}${span === '-' ? '' : ` in ${span}`}${failed}`;
}

function took(r: { startedAt: string | null; createdAt: string; finishedAt: string | null }): string {
  const began = toMillis(r.startedAt) ?? toMillis(r.createdAt);
  const ended = toMillis(r.finishedAt);
  return began !== undefined && ended !== undefined ? formatDuration(ended - began) : '-';
}

function triggerText(r: { trigger: WorkflowRun['trigger'] }): string {
  const t = r.trigger;
  if (t.type === 'SCHEDULE') return t.starterLogId === null ? 'SCHEDULE' : `SCHEDULE (run ${t.starterLogId})`;
  return t.by ? `MANUAL (${t.by})` : 'MANUAL';
}

/** "2 succeeded, 1 running, 1 pending": the counts that are not 0, in the order of a run. */
function countsText(counts: WorkflowRunSummary['nodeCounts']): string {
  const parts = NODE_STATUSES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s.toLowerCase()}`);
  return parts.length === 0 ? '-' : parts.join(', ');
}

/** The job runs of a node: "30064771073", or the first two and how many more (a broadcast's shards). */
function logIdsText(logIds: readonly number[]): string {
  if (logIds.length === 0) return '-';
  if (logIds.length <= 2) return logIds.join(', ');
  return `${logIds.slice(0, 2).join(', ')} +${logIds.length - 2}`;
}

/** A time for a table cell: "14:03:05" today, "2030-05-30 14:03" before; "-" for none. */
function clock(ctx: Context, value: string | null): string {
  const ms = toMillis(value);
  if (ms === undefined) return '-';
  const p = zonedParts(ms, ctx.out.zone);
  return p.date === zonedParts(ctx.out.now(), ctx.out.zone).date ? p.time : `${p.date} ${p.time.slice(0, 5)}`;
}

function showWorkflowRun(ctx: Context, r: WorkflowRun): void {
  const { out } = ctx;
  out.details([
    ['run', r.id],
    ['workflow', `${r.workflowId} ${r.workflowName} (${r.appName}), version ${r.version}`],
    ['status', out.status(r.status)],
    ['trigger', triggerText(r)],
    ['input', clip(JSON.stringify(r.input) ?? 'null', 200)],
    ['created', out.when(r.createdAt)],
    ['started', out.when(r.startedAt)],
    ['finished', out.when(r.finishedAt)],
    ['took', took(r)],
    ['failed nodes', r.failedNodes.length === 0 ? '-' : r.failedNodes.join(', ')],
  ]);
  out.line();
  out.table(
    ['NODE', 'STATUS', 'ATTEMPT', 'LOG IDS', 'FIRED', 'FINISHED', 'RESULT', 'REASON'],
    r.nodes.map((n) => [
      n.key,
      out.status(n.status),
      String(n.attempt),
      logIdsText(n.logIds),
      clock(ctx, n.firedAt),
      clock(ctx, n.finishedAt),
      n.result === null ? '-' : clip(n.result, 40) || '-',
      n.reason === null ? '-' : clip(n.reason, 40),
    ]),
  );
  const withLog = r.nodes.find((n) => n.logIds.length > 0);
  if (withLog) out.note(out.ce.dim(`A node's log: tickring runs log ${withLog.logIds[0]}`));
}
