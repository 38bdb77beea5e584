/**
 * `tickring import tickring <file>`: a document of `tickring export` into this server. Checks the whole
 * document first (its shape and references, then every schedule with the server's preview, which
 * writes nothing) and stops with every problem; then lists what the server has, plans (nothing is
 * created twice: `../tickring-export/plan.ts`) and reports the plan (`--dry-run`) or carries it out
 * (`../tickring-export/apply.ts`). Progress on stderr, the report on stdout.
 */
import { type Job, TickringApiError, type TickringClient, type Workflow } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner } from '../context.js';
import { CommandFailedError, EXIT } from '../errors.js';
import { applyImport, type ImportReport, type ImportTarget } from '../tickring-export/apply.js';
import { validateDocument } from '../tickring-export/document.js';
import { planImport } from '../tickring-export/plan.js';
import { formatReport, shortfalls } from '../tickring-export/report.js';
import { examples } from './args.js';
import { progressPrinter, untilUnreachable } from './import-progress.js';

interface ImportTickringOptions {
  readonly dryRun?: boolean;
  readonly start?: boolean;
}

export function registerImportTickring(imports: Command, run: ActionRunner): void {
  imports
    .command('tickring')
    .description('import the groups, jobs and workflows of a `tickring export` document')
    .argument('<file>', 'the document `tickring export` wrote (- for stdin)')
    .option('--dry-run', 'report what would be done, send nothing')
    .option(
      '--start',
      'start the jobs and workflows that were RUNNING on the source (only once the source is stopped)',
    )
    .addHelpText(
      'after',
      `${examples(
        'TICKRING_URL=http://old-box:8080 tickring export tickring-export.json',
        'tickring import tickring tickring-export.json --dry-run',
        'tickring import tickring tickring-export.json',
        'tickring import tickring tickring-export.json --start   # the source stopped, the executors here',
      )}
The document is checked whole first (its fields and references, then its schedules with this
server's preview): with any problem, every one is listed and nothing is written.
Then groups, jobs, workflows and child links are created, the ids remapped (child jobs and workflow
nodes name the new jobs). Everything is created STOPPED unless --start: the source still schedules
its jobs, and two schedulers on one set of jobs fire each of them twice.
Running it again creates nothing twice: a group is found by appName; a job by group, name, glue type,
handler, parameter and schedule; a workflow by group and name (equal ones paired in id order). What is
found is left as it is (differences are reported); missing child links are added; --start starts
what was RUNNING on the source and is stopped here.
Not carried: run history, users, API tokens, and groups' own access tokens (set them again).
Exit 0 when everything is imported or was there already, 1 when something is wrong with the document
or could not be imported.
`,
    )
    .action(
      run<ImportTickringOptions>(async (ctx, [file], opts) => {
        const path = file as string;
        const parsed = await ctx.readJsonFile(path);
        const validation = validateDocument(parsed);
        if (!validation.ok) throw invalid(path, validation.problems);
        const { document } = validation;

        const client = await ctx.client();
        const scheduleProblems = await checkSchedules(client, document);
        if (scheduleProblems.length > 0) throw invalid(path, scheduleProblems);

        const groups = (await client.listGroups()).items;
        const jobs: Job[] = [];
        for await (const job of client.paginate('listJobs', { query: { limit: 100 } })) jobs.push(job);
        const workflows: Workflow[] = [];
        for await (const w of client.paginate('listWorkflows', { query: { limit: 100 } })) workflows.push(w);
        const plan = planImport(document, { groups, jobs, workflows });

        const progress = progressPrinter(ctx);
        let report: ImportReport;
        try {
          report = await applyImport(plan, importTarget(client), {
            dryRun: opts.dryRun === true,
            start: opts.start === true,
            onProgress: progress.onProgress,
          });
        } finally {
          progress.done();
        }

        if (ctx.json) ctx.out.json(report);
        else ctx.out.print(formatReport(report));
        const lost = shortfalls(report);
        if (lost.length === 0) return EXIT.ok;
        ctx.out.note(
          `${ctx.out.ce.red(report.dryRun ? 'Would not be imported:' : 'Not imported:')} ${lost.join(', ')} (see the report${ctx.json ? '' : ' above'})`,
        );
        return EXIT.failed;
      }),
    );
}

function invalid(path: string, problems: readonly string[]): CommandFailedError {
  return new CommandFailedError(
    `${path} cannot be imported (${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written):`,
    problems,
  );
}

/**
 * Every distinct schedule of the document read by the server's preview (a read: nothing is written),
 * so a schedule this server does not take (a time zone it lacks, a hand-edited cron) stops the import
 * before its first write. One problem per schedule, naming the jobs and workflows that have it.
 */
async function checkSchedules(
  client: TickringClient,
  document: { readonly jobs: readonly Scheduled[]; readonly workflows: readonly Scheduled[] },
): Promise<string[]> {
  const users = new Map<string, { schedule: Scheduled; refs: string[] }>();
  const add = (kind: string, s: Scheduled) => {
    if (s.scheduleType === 'NONE') return;
    const key = JSON.stringify([s.scheduleType, s.scheduleConf, s.timeZone]);
    const entry = users.get(key) ?? { schedule: s, refs: [] };
    entry.refs.push(`${kind} #${s.id}`);
    users.set(key, entry);
  };
  for (const j of document.jobs) add('job', j);
  for (const w of document.workflows) add('workflow', w);

  const problems: string[] = [];
  for (const { schedule: s, refs } of users.values()) {
    try {
      await client.previewSchedule({
        query: {
          scheduleType: s.scheduleType,
          scheduleConf: s.scheduleConf,
          timeZone: s.timeZone,
          count: 1,
        },
      });
    } catch (err) {
      if (!(err instanceof TickringApiError) || err.status !== 400) throw err;
      const whose =
        refs.length > 3 ? `${refs.slice(0, 3).join(', ')} and ${refs.length - 3} more` : refs.join(', ');
      problems.push(
        `${whose}: ${s.scheduleType} ${JSON.stringify(s.scheduleConf)} in ${s.timeZone}: ${err.message}`,
      );
    }
  }
  return problems;
}

interface Scheduled {
  readonly id: number;
  readonly scheduleType: 'NONE' | 'CRON' | 'FIX_RATE' | 'ONCE';
  readonly scheduleConf: string;
  readonly timeZone: string;
}

/** The import's target through the client; once the server cannot be reached, the rest is not sent. */
function importTarget(client: TickringClient): ImportTarget {
  const send = untilUnreachable();
  return {
    createGroup: (body) => send(() => client.createGroup({ body })),
    createJob: ({ childJobIds, ...body }) =>
      send(() => client.createJob({ body: { ...body, childJobIds: [...childJobIds] } })),
    setChildJobs: (id, childJobIds) =>
      send(() => client.updateJob({ path: { id }, body: { childJobIds: [...childJobIds] } })),
    createWorkflow: ({ nodes, ...body }) =>
      send(() =>
        client.createWorkflow({
          body: {
            ...body,
            nodes: nodes.map(({ upstream, ...node }) => ({
              ...node,
              upstream: upstream.map((e) => ({ ...e })),
            })),
          },
        }),
      ),
    startJob: (id) => send(() => client.startJob({ path: { id } })),
    startWorkflow: (id) => send(() => client.startWorkflow({ path: { id } })),
  };
}
