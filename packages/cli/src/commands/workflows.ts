/**
 * `tickring workflows ls|get|create|edit|rm|start|stop|trigger|backfill|ledger`: workflows, DAGs of jobs of one group
 * (`/v1/workflows`).
 */
import { readFile } from 'node:fs/promises';
import type { Workflow, WorkflowNode, WorkflowPage, WorkflowRequest } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { UsageError } from '../errors.js';
import { clip } from '../output.js';
import { canAsk, readAll } from '../prompt.js';
import { examples, intIn, positiveId } from './args.js';
import { registerWorkflowBackfill } from './backfills.js';
import { confirmDelete } from './groups.js';
import { deadlineOf, deadlineRows, scheduleText } from './jobs.js';
import { registerWorkflowLedger } from './ledger.js';
import { waitForWorkflowRun } from './wf-runs.js';

const FILE_HELP = `
A file holds the body of POST /v1/workflows (PUT /v1/workflows/{id} for edit), e.g. a diamond:
  {"name": "Nightly ETL", "appName": "my-app", "scheduleType": "CRON", "scheduleConf": "0 0 2 * * ?",
   "timeZone": "Europe/Berlin", "overlapPolicy": "SKIP",
   "nodes": [
     {"key": "extract", "jobId": 7, "executorParam": "{{ input.date }}"},
     {"key": "left", "jobId": 8, "upstream": [{"key": "extract"}]},
     {"key": "right", "jobId": 9, "upstream": [{"key": "extract"}]},
     {"key": "join", "jobId": 10, "upstream": [{"key": "left"}, {"key": "right", "condition": "ALWAYS"}]}]}
"deadline": {"time": "06:00", "timeZone": "Europe/Berlin", "days": "weekdays"} in the file (or --deadline)
alarms when no run succeeded by then. The server checks the whole definition and lists every problem at
once (cycles, unknown keys, jobs).
`;

const DEADLINE_HELP =
  'must have succeeded by this local time each day: "06:00 Europe/Berlin" (add "weekdays" for Mon-Fri); "none" clears it; over the file\'s';

/** The file's definition with the --deadline flag's deadline over it (null: none), when given. */
function withDeadline(body: unknown, deadline: ReturnType<typeof deadlineOf> | undefined): unknown {
  if (deadline === undefined) return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body; // the server says what is wrong
  return { ...body, deadline: deadline === 'none' ? null : deadline };
}

export function registerWorkflows(program: Command, run: ActionRunner, now: () => number = Date.now): void {
  const workflows = program
    .command('workflows')
    .description(
      'workflows (DAGs of jobs of one group): list, show, create, edit, delete, start, stop, trigger, backfill, ledger',
    )
    .addHelpText(
      'after',
      examples(
        'tickring workflows ls --app my-app',
        'tickring workflows create -f workflow.json',
        `tickring workflows trigger 3 --input '{"date": "2030-01-01"}' --wait`,
      ),
    );

  workflows
    .command('ls')
    .alias('list')
    .description('list workflows in id order (one page; --all for every page)')
    .option('--app <appName>', "only this group's workflows")
    .option('--all', 'read every page')
    .option('--limit <n>', 'workflows per page (1-100)', intIn(1, 100))
    .option('--cursor <cursor>', 'start at this page (the nextCursor of the one before)')
    .addHelpText(
      'after',
      examples(
        'tickring workflows ls',
        'tickring workflows ls --app my-app',
        'tickring workflows ls --all --json | jq -r ".items[] | [.id, .name] | @tsv"',
      ),
    )
    .action(
      run<{ app?: string; all?: boolean; limit?: number; cursor?: string }>(async (ctx, _args, opts) => {
        const client = await ctx.client();
        const query = {
          ...(opts.app === undefined ? {} : { appName: opts.app }),
          ...(opts.limit === undefined ? {} : { limit: opts.limit }),
          ...(opts.cursor === undefined ? {} : { cursor: opts.cursor }),
        };
        let page: WorkflowPage;
        if (opts.all) {
          const items: Workflow[] = [];
          for await (const p of client.pages('listWorkflows', { query })) items.push(...p.items);
          page = { items, nextCursor: null };
        } else {
          page = await client.listWorkflows({ query });
        }
        if (ctx.json) return ctx.out.json(page);
        if (page.items.length === 0) ctx.out.note('No workflows found.');
        else {
          ctx.out.table(
            ['ID', 'NAME', 'APP', 'SCHEDULE', 'STATUS', 'NEXT FIRE', 'ACTIVE', 'VERSION'],
            page.items.map((w) => [
              String(w.id),
              clip(w.name, 32),
              w.appName,
              scheduleText(w),
              ctx.out.status(w.triggerStatus),
              w.triggerStatus === 'RUNNING' ? ctx.out.shortWhen(w.triggerNextTime) : '-',
              activeText(w),
              String(w.version),
            ]),
          );
        }
        if (page.nextCursor) {
          ctx.out.note(
            ctx.out.ce.dim(
              `More workflows: tickring workflows ls --all, or the next page with --cursor ${page.nextCursor}`,
            ),
          );
        }
      }),
    );

  workflows
    .command('get')
    .description('show one workflow: its schedule and its nodes, each with its upstream nodes')
    .argument('<id>', "the workflow's id", positiveId)
    .addHelpText(
      'after',
      examples('tickring workflows get 3', 'tickring workflows get 3 --json > workflow.json'),
    )
    .action(
      run(async (ctx, [id]) => {
        const client = await ctx.client();
        const workflow = await client.getWorkflow({ path: { id: Number(id) } });
        if (ctx.json) return ctx.out.json(workflow);
        showWorkflow(ctx, workflow);
      }),
    );

  workflows
    .command('create')
    .description('create a workflow from a JSON file (created STOPPED unless the file says RUNNING)')
    .requiredOption('-f, --file <file>', 'the JSON definition (- for stdin)')
    .option('--deadline <time zone>', DEADLINE_HELP, deadlineOf)
    .addHelpText(
      'after',
      `${examples(
        'tickring workflows create -f workflow.json',
        'cat workflow.json | tickring workflows create -f -',
        'tickring workflows create -f workflow.json --deadline "06:00 Europe/Berlin weekdays"',
      )}${FILE_HELP}`,
    )
    .action(
      run<{ file: string; deadline?: ReturnType<typeof deadlineOf> }>(async (ctx, _args, opts) => {
        const body = withDeadline(await ctx.readJsonFile(opts.file), opts.deadline);
        const client = await ctx.client();
        const workflow = await client.createWorkflow({ body: body as unknown as WorkflowRequest });
        if (ctx.json) return ctx.out.json(workflow);
        ctx.out.note(
          `Created workflow ${workflow.id}${
            workflow.triggerStatus === 'STOPPED' && workflow.scheduleType !== 'NONE'
              ? ` (STOPPED: tickring workflows start ${workflow.id})`
              : ''
          }.`,
        );
        showWorkflow(ctx, workflow);
      }),
    );

  workflows
    .command('edit')
    .alias('update')
    .description(
      "replace a workflow's definition with a JSON file's (a new version; runs in progress keep theirs)",
    )
    .argument('<id>', "the workflow's id", positiveId)
    .requiredOption('-f, --file <file>', 'the whole JSON definition (- for stdin)')
    .option('--deadline <time zone>', DEADLINE_HELP, deadlineOf)
    .addHelpText(
      'after',
      `${examples(
        'tickring workflows edit 3 -f workflow.json',
        'tickring workflows get 3 --json > wf.json && $EDITOR wf.json && tickring workflows edit 3 -f wf.json',
        'tickring workflows get 3 --json > wf.json && tickring workflows edit 3 -f wf.json --deadline none',
      )}${FILE_HELP}A file read with \`workflows get --json\` carries the workflow's version: the edit is refused (409)
when someone changed the workflow since. Without "triggerStatus" the schedule's status is kept.
`,
    )
    .action(
      run<{ file: string; deadline?: ReturnType<typeof deadlineOf> }>(async (ctx, [id], opts) => {
        const body = withDeadline(await ctx.readJsonFile(opts.file), opts.deadline);
        const client = await ctx.client();
        const workflow = await client.updateWorkflow({
          path: { id: Number(id) },
          body: body as unknown as WorkflowRequest,
        });
        if (ctx.json) return ctx.out.json(workflow);
        ctx.out.note(`Changed workflow ${workflow.id}: version ${workflow.version}.`);
        showWorkflow(ctx, workflow);
      }),
    );

  workflows
    .command('rm')
    .alias('delete')
    .description('delete a workflow and its schedule job (refused while a run of it runs or waits)')
    .argument('<id>', "the workflow's id", positiveId)
    .option('-y, --yes', 'do not ask')
    .addHelpText('after', examples('tickring workflows rm 3', 'tickring workflows rm 3 --yes'))
    .action(
      run<{ yes?: boolean }>(async (ctx, [id], opts) => {
        const client = await ctx.client();
        const workflowId = Number(id);
        if (!opts.yes) {
          if (!canAsk(ctx.io)) throw new UsageError('not asking without a terminal: add --yes to delete');
          const w = await client.getWorkflow({ path: { id: workflowId } });
          await confirmDelete(
            ctx,
            `Delete workflow ${w.id} ${JSON.stringify(w.name)} (${w.appName})?`,
            false,
          );
        }
        await client.deleteWorkflow({ path: { id: workflowId } });
        if (!ctx.json) ctx.out.note(`Deleted workflow ${workflowId}.`);
      }),
    );

  for (const [verb, what] of [
    ['start', "start a workflow's schedule (from its next fire)"],
    ['stop', "stop a workflow's schedule (runs in progress go on; it can still be triggered)"],
  ] as const) {
    workflows
      .command(verb)
      .description(what)
      .argument('<id>', "the workflow's id", positiveId)
      .addHelpText('after', examples(`tickring workflows ${verb} 3`))
      .action(
        run(async (ctx, [id]) => {
          const client = await ctx.client();
          const w =
            verb === 'start'
              ? await client.startWorkflow({ path: { id: Number(id) } })
              : await client.stopWorkflow({ path: { id: Number(id) } });
          if (ctx.json) return ctx.out.json(w);
          ctx.out.line(
            verb === 'start'
              ? `Workflow ${w.id} ${ctx.out.status(w.triggerStatus)}; next fire ${ctx.out.when(w.triggerNextTime)}`
              : `Workflow ${w.id} ${ctx.out.status(w.triggerStatus)}.`,
          );
        }),
      );
  }

  workflows
    .command('trigger')
    .description('start a run of a workflow now (whatever its schedule), as its overlap policy allows')
    .argument('<id>', "the workflow's id", positiveId)
    .option('--input <json>', "the run's input, JSON (templates read it as {{ input.… }})")
    .option('--input-file <file>', "the run's input from a JSON file (- for stdin)")
    .option(
      '--wait',
      'wait for the run to end, showing each node as its status changes; exit 0 when it SUCCEEDED, 1 when it FAILED or was CANCELLED',
    )
    .addHelpText(
      'after',
      `${examples(
        'tickring workflows trigger 3',
        `tickring workflows trigger 3 --input '{"date": "2030-01-01"}' --wait`,
        'RUN=$(tickring workflows trigger 3 --input-file input.json) && tickring wf-runs get "$RUN"',
      )}\nThe run's id alone on stdout (notes and the nodes' progress on stderr). With --json: the run as the
server answered; with --wait --json one JSON object per line: that answer, then the ended run.\n`,
    )
    .action(
      run<{ input?: string; inputFile?: string; wait?: boolean }>(async (ctx, [id], opts) => {
        const input = await runInput(ctx, opts);
        const client = await ctx.client();
        const workflowId = Number(id);
        const started = await client.triggerWorkflow({
          path: { id: workflowId },
          body: input === undefined ? {} : { input },
        });
        if (ctx.json) {
          if (opts.wait) ctx.out.print(`${JSON.stringify(started)}\n`);
          else ctx.out.json(started);
        } else {
          ctx.out.line(started.id);
          ctx.out.note(
            `Triggered workflow ${workflowId}: run ${started.id} ${ctx.out.status(started.status, ctx.out.ce)}${
              started.status === 'QUEUED' ? ' (waiting for the running run: BUFFER_ONE)' : ''
            }`,
          );
        }
        if (!opts.wait) {
          if (!ctx.json) ctx.out.note(ctx.out.ce.dim(`Its nodes: tickring wf-runs get ${started.id}`));
          return;
        }
        return waitForWorkflowRun(ctx, client, started);
      }),
    );

  registerWorkflowBackfill(workflows, run, now);
  registerWorkflowLedger(workflows, run, now);
}

/** `--input` or `--input-file`: any JSON; undefined when neither is given. */
async function runInput(ctx: Context, opts: { input?: string; inputFile?: string }): Promise<unknown> {
  if (opts.input !== undefined && opts.inputFile !== undefined) {
    throw new UsageError('give the input with --input or with --input-file, not both');
  }
  let text: string;
  let what: string;
  if (opts.input !== undefined) {
    text = opts.input;
    what = '--input';
  } else if (opts.inputFile !== undefined) {
    what = opts.inputFile;
    try {
      text = opts.inputFile === '-' ? await readAll(ctx.io) : await readFile(opts.inputFile, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${opts.inputFile}: ${(err as Error).message}`);
    }
  } else {
    return undefined;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not JSON: ${(err as Error).message}`);
  }
}

function activeText(w: Workflow): string {
  return w.bufferedRunId ? `${w.activeRuns} (+1 queued)` : String(w.activeRuns);
}

/** "extract [ON_SUCCESS], b [ALWAYS]" after an arrow; "(root)" for a node without upstream nodes. */
export function upstreamText(upstream: WorkflowNode['upstream']): string {
  if (!upstream || upstream.length === 0) return '(root)';
  return `← ${upstream.map((e) => `${e.key} [${e.condition ?? 'ON_SUCCESS'}]`).join(', ')}`;
}

/** The nodes as a small text graph: each node, its job, its upstream nodes and conditions, its param. */
export function nodeGraph(nodes: readonly WorkflowNode[]): { head: string[]; rows: string[][] } {
  return {
    head: ['NODE', 'JOB', 'AFTER', 'PARAM'],
    rows: nodes.map((n) => [
      n.key,
      String(n.jobId),
      upstreamText(n.upstream),
      n.executorParam === undefined || n.executorParam === '' ? "- (the job's)" : clip(n.executorParam, 48),
    ]),
  };
}

function showWorkflow(ctx: Context, w: Workflow): void {
  const { out } = ctx;
  out.details([
    ['id', String(w.id)],
    ['name', w.name],
    ['app', w.appName],
    ['version', String(w.version)],
    ['status', out.status(w.triggerStatus)],
    [
      'schedule',
      w.scheduleType === 'NONE' ? 'NONE (runs when triggered)' : `${w.scheduleType} ${w.scheduleConf}`,
    ],
    ['time zone', w.timeZone],
    ['misfire', w.misfireStrategy],
    ['overlap', w.overlapPolicy],
    ...deadlineRows(ctx, w),
    ['next fire', w.triggerStatus === 'RUNNING' ? out.when(w.triggerNextTime) : '-'],
    ['schedule job', w.starterJobId === null ? '-' : String(w.starterJobId)],
    ['active runs', String(w.activeRuns)],
    ['queued run', w.bufferedRunId ?? '-'],
    ['created', out.when(w.createdAt)],
    ['updated', out.when(w.updatedAt)],
  ]);
  out.line();
  out.line(out.c.bold(`${w.nodes.length} node${w.nodes.length === 1 ? '' : 's'}:`));
  const graph = nodeGraph(w.nodes);
  out.table(graph.head, graph.rows);
}
