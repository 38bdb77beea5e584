/**
 * `tickring import xxl-job <dump.sql>`: the importer core (`../import-xxl-job`) wired to the admin API
 * (`tickring import tickring <file>`: import-tickring.ts).
 * Lists what tickring has (every group, every job), plans, then reports the plan (`--dry-run`) or
 * carries it out; progress on stderr, the report on stdout.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Job, TickringClient } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { CommandFailedError, EXIT, UsageError } from '../errors.js';
import {
  applyImport,
  DumpParseError,
  formatReport,
  ImportOptionsError,
  type ImportReport,
  type ImportTarget,
  planImport,
  planReport,
  readDump,
} from '../import-xxl-job/index.js';
import { examples } from './args.js';
import { progressPrinter, untilUnreachable } from './import-progress.js';
import { registerImportTickring } from './import-tickring.js';

interface ImportOptions {
  readonly dryRun?: boolean;
  readonly timeZone?: string;
}

export function registerImport(program: Command, run: ActionRunner): void {
  const imports = program
    .command('import')
    .description('bring jobs over from another scheduler: XXL-JOB, or another tickring')
    .addHelpText(
      'after',
      examples(
        'tickring import xxl-job xxl_job.sql --dry-run',
        'tickring import tickring tickring-export.json --dry-run',
      ),
    );

  imports
    .command('xxl-job')
    .description("import XXL-JOB's groups and jobs from a MySQL dump of xxl_job_group and xxl_job_info")
    .argument('<dump.sql>', 'the dump, e.g. mysqldump xxl_job xxl_job_group xxl_job_info > xxl_job.sql')
    .option('--dry-run', 'report what would be done, send nothing')
    .option('--time-zone <zone>', "the IANA zone XXL-JOB's crons were read in (its admin's); default UTC")
    .addHelpText(
      'after',
      `${examples(
        'mysqldump xxl_job xxl_job_group xxl_job_info > xxl_job.sql',
        'tickring import xxl-job xxl_job.sql --time-zone Asia/Shanghai --dry-run',
        'tickring import xxl-job xxl_job.sql --time-zone Asia/Shanghai',
        'tickring import xxl-job xxl_job.sql --json > report.json',
      )}
Jobs are created STOPPED; the report lists those that ran in XXL-JOB, to start once their executors
are registered. Running it again creates nothing twice: groups are found by appName, jobs by app,
name, handler and schedule.
Exit 0 when everything is imported or was there already, 1 when something could not be imported.
`,
    )
    .action(
      run<ImportOptions>(async (ctx, [file], opts) => {
        const path = file as string;
        try {
          const st = await stat(path);
          if (!st.isFile()) throw new UsageError(`${path} is not a file`);
        } catch (err) {
          if (err instanceof UsageError) throw err;
          throw new UsageError(`cannot read ${path}: ${(err as Error).message}`);
        }
        const client = await ctx.client();

        let dump: Awaited<ReturnType<typeof readDump>>;
        try {
          dump = await readDump(createReadStream(path));
        } catch (err) {
          if (err instanceof DumpParseError) throw new CommandFailedError(`${path}: ${err.message}`);
          throw err;
        }

        const groups = (await client.listGroups()).items;
        const jobs: Job[] = [];
        for await (const job of client.paginate('listJobs', { query: { limit: 100 } })) jobs.push(job);

        let plan: ReturnType<typeof planImport>;
        try {
          plan = planImport(
            dump,
            { groups, jobs },
            opts.timeZone === undefined ? {} : { timeZone: opts.timeZone },
          );
        } catch (err) {
          if (err instanceof ImportOptionsError) throw new UsageError(`--time-zone: ${err.message}`);
          throw err;
        }

        let report: ImportReport;
        if (opts.dryRun) report = planReport(plan);
        else {
          const progress = progressPrinter(ctx);
          try {
            report = await applyImport(plan, importTarget(client), { onProgress: progress.onProgress });
          } finally {
            progress.done();
          }
        }

        if (ctx.json) ctx.out.json(report);
        else ctx.out.print(formatReport(report));
        return verdict(ctx, report);
      }),
    );

  registerImportTickring(imports, run);
}

/** The importer's target through the client; once the server cannot be reached, the rest is not sent. */
export function importTarget(client: TickringClient): ImportTarget {
  const send = untilUnreachable();
  return {
    createGroup: ({ addressList, ...rest }) =>
      send(() =>
        client.createGroup({ body: addressList ? { ...rest, addressList: [...addressList] } : rest }),
      ),
    setGroupAccessToken: (appName, accessToken) =>
      send(() => client.setGroupAccessToken({ path: { appName }, body: { accessToken } })),
    createJob: (body) => send(() => client.createJob({ body: { ...body } })),
    updateJob: (id, patch) =>
      send(() => client.updateJob({ path: { id }, body: { childJobIds: [...patch.childJobIds] } })),
  };
}

/** 0 when everything is in tickring (created or there already), 1 otherwise, said on stderr. */
function verdict(ctx: Context, report: ImportReport): number {
  const { groups, jobs, links } = report.counts;
  const lost = [
    [groups.failed, 'group(s) failed'],
    [groups.skipped, 'group(s) skipped'],
    [jobs.failed, 'job(s) failed'],
    [jobs.skipped, 'job(s) skipped'],
    [links.failed, 'child link(s) failed'],
    [links.skipped, 'child link(s) skipped'],
  ] as const;
  const parts = lost.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  if (parts.length === 0) return EXIT.ok;
  ctx.out.note(
    `${ctx.out.ce.red(report.dryRun ? 'Would not be imported:' : 'Not imported:')} ${parts.join(', ')} (see the report${ctx.json ? '' : ' above'})`,
  );
  return EXIT.failed;
}
