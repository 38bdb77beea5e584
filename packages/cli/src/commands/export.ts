/**
 * `tickring export [FILE]`: the configuration (groups, jobs, workflows) as one versioned JSON document
 * (`../tickring-export/document.ts`), for `tickring import tickring` on another installation. The
 * document on stdout or in FILE; progress and the summary on stderr.
 */
import { writeFile } from 'node:fs/promises';
import type { Job, Workflow } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner } from '../context.js';
import { UsageError } from '../errors.js';
import { buildExportDocument } from '../tickring-export/document.js';
import { examples } from './args.js';

export function registerExport(program: Command, run: ActionRunner): void {
  program
    .command('export')
    .description(
      'write the configuration (executor groups, jobs, workflows) as one JSON document, for `tickring import tickring` elsewhere',
    )
    .argument('[file]', 'where to write it (created or replaced, readable by you only); stdout when absent')
    .addHelpText(
      'after',
      `${examples(
        'tickring export tickring-export.json',
        'tickring export | jq ".jobs | length"',
        'tickring --url https://<id>.execute-api.<region>.amazonaws.com import tickring tickring-export.json --dry-run',
      )}
Exported: every group (title, address type, MANUAL addresses), every job (all the fields an admin
sets: schedule, routing, retries, alarms, child jobs, RUNNING or STOPPED) and every workflow (its
definition and schedule; its schedule job goes with it). Not exported: run history (runs, logs,
workflow runs), users, grants and API tokens, and secrets: a group's own access token is only marked
("hasOwnAccessToken"), to be set again where it is imported.
Read as the caller: a user who is not an admin exports only the groups they reach.
`,
    )
    .action(
      run(async (ctx, [file]) => {
        const client = await ctx.client();
        const { url } = await ctx.connection();
        const me = await client.getMe();
        if (me.role !== 'admin') {
          ctx.out.warn(
            `${me.name} is ${me.role === 'operator' ? 'an' : 'a'} ${me.role}, not an admin: only the groups they reach are exported`,
          );
        }

        const read = (what: string, n: number) => ctx.out.note(ctx.out.ce.dim(`read ${n} ${what}`));
        const groups = (await client.listGroups()).items;
        read('group(s)', groups.length);
        const jobs: Job[] = [];
        for await (const job of client.paginate('listJobs', { query: { limit: 100 } })) jobs.push(job);
        read('job(s)', jobs.length);
        const workflows: Workflow[] = [];
        for await (const w of client.paginate('listWorkflows', { query: { limit: 100 } })) workflows.push(w);
        read('workflow(s)', workflows.length);

        const document = buildExportDocument({
          source: url,
          exportedAt: new Date(ctx.out.now()).toISOString(),
          groups,
          jobs,
          workflows,
        });
        const text = `${JSON.stringify(document, null, 2)}\n`;
        if (file === undefined || file === '-') ctx.out.print(text);
        else {
          try {
            // Webhook URLs and job parameters may hold credentials of their own.
            await writeFile(file, text, { mode: 0o600 });
          } catch (err) {
            throw new UsageError(`cannot write ${file}: ${(err as Error).message}`);
          }
        }

        const owned = document.groups.filter((g) => g.hasOwnAccessToken).map((g) => g.appName);
        ctx.out.note(
          `Exported ${document.groups.length} group(s), ${document.jobs.length} job(s), ${document.workflows.length} workflow(s)${
            file === undefined || file === '-' ? '' : ` to ${file}`
          }. Not exported: run history, users, API tokens, access tokens.`,
        );
        if (owned.length > 0) {
          ctx.out.note(
            `Groups with an access token of their own (not exported, a secret: set it again after importing): ${owned.join(', ')}`,
          );
        }
      }),
    );
}
