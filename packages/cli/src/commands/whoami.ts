/** `tickring whoami`: who the token or session is, its role and groups, what it may do (`GET /v1/me`). */
import type { Me } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { examples } from './args.js';
import { formatGroups } from './grant.js';

const KIND: Readonly<Record<Me['kind'], string>> = {
  session: 'a signed-in user (session)',
  token: 'an API token',
  bootstrap: 'the bootstrap admin token',
};

export function registerWhoami(program: Command, run: ActionRunner): void {
  program
    .command('whoami')
    .description('who you are on the server: user or token, role, groups, GLUE, and what you may do')
    .addHelpText(
      'after',
      `${examples('tickring whoami', 'tickring whoami --json | jq -r .role')}
With --json: the server's answer (GET /v1/me): kind, name, username, displayName, role, groups, glue,
permissions {admin, readGroups, operateGroups, glue}.
`,
    )
    .action(
      run(async (ctx) => {
        const client = await ctx.client();
        const me = await client.getMe();
        if (ctx.json) return ctx.out.json(me);
        await showMe(ctx, me);
      }),
    );
}

async function showMe(ctx: Context, me: Me): Promise<void> {
  const { out } = ctx;
  const connection = await ctx.connection();
  const p = me.permissions;
  const who =
    me.kind === 'session' && me.displayName && me.displayName !== me.username
      ? `${me.username} (${me.displayName})`
      : (me.username ?? me.name);
  const may = p.admin
    ? ['everything: users, API tokens, groups, GLUE sources, the whole audit log']
    : [
        `read the jobs, runs, executors and audit of: ${formatGroups(p.readGroups)}`,
        `change jobs and runs (create, edit, start, stop, trigger, kill, delete) of: ${formatGroups(p.operateGroups)}`,
        p.glue ? 'edit GLUE sources of those groups' : 'not edit GLUE sources',
      ];
  out.details([
    ['who', who],
    ['as', KIND[me.kind] ?? me.kind],
    ['role', me.role],
    ['groups', formatGroups(me.groups)],
    ['glue', me.glue ? 'yes' : 'no'],
    ['may', may.join('\n')],
    ['server', connection.url],
    ...(connection.session?.endsAt === undefined
      ? []
      : ([['session ends', `${out.when(connection.session.endsAt)} at the latest`]] as const)),
  ]);
}
