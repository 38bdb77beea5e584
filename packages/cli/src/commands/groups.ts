/** `tickring groups ls|get|create|edit|rm`: executor groups (`/v1/groups`). */
import type { Group, GroupCreate, GroupUpdate } from '@tickring/client';
import type { Command } from 'commander';
import type { ActionRunner, Context } from '../context.js';
import { CommandFailedError, UsageError } from '../errors.js';
import { canAsk, confirm } from '../prompt.js';
import { collect, examples, oneOf } from './args.js';

interface GroupFlags {
  readonly file?: string;
  readonly app?: string;
  readonly title?: string;
  readonly addressType?: 'AUTO' | 'MANUAL';
  readonly address?: string[];
  readonly alertChannel?: string[];
  readonly clearAlertChannels?: boolean;
}

export function registerGroups(program: Command, run: ActionRunner): void {
  const groups = program
    .command('groups')
    .description('executor groups: the appNames executors register under')
    .addHelpText(
      'after',
      examples(
        'tickring groups ls',
        'tickring groups create --app my-app --title "My application"',
        'tickring groups create --app billing --title Billing --address-type MANUAL --address http://10.0.0.5:9999/',
        'tickring groups edit billing --alert-channel 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11',
      ),
    );

  groups
    .command('ls')
    .description('list every group')
    .addHelpText(
      'after',
      examples('tickring groups ls', 'tickring groups ls --json | jq -r ".items[].appName"'),
    )
    .action(
      run(async (ctx) => {
        const client = await ctx.client();
        const list = await client.listGroups();
        if (ctx.json) return ctx.out.json(list);
        if (list.items.length === 0) return ctx.out.note('No groups yet: tickring groups create --help');
        ctx.out.table(
          ['APP NAME', 'TITLE', 'TYPE', 'ADDRESSES', 'OWN TOKEN', 'UPDATED'],
          list.items.map((g) => [
            g.appName,
            g.title,
            g.addressType,
            g.addressList.length === 0 ? '-' : g.addressList.join(', '),
            g.accessTokenSetAt ? 'yes' : 'no',
            ctx.out.shortWhen(g.updatedAt),
          ]),
        );
      }),
    );

  groups
    .command('get')
    .description('show one group')
    .argument('<appName>', "the group's appName")
    .addHelpText('after', examples('tickring groups get my-app', 'tickring groups get my-app --json'))
    .action(
      run(async (ctx, [appName]) => {
        const client = await ctx.client();
        const group = await client.getGroup({ path: { appName: appName as string } });
        if (ctx.json) return ctx.out.json(group);
        showGroup(ctx, group);
      }),
    );

  groupFlags(
    groups
      .command('create')
      .description('create a group from flags or a JSON file (flags override the file)')
      .addHelpText(
        'after',
        `${examples(
          'tickring groups create --app my-app --title "My application"',
          'tickring groups create --app billing --title Billing --address http://10.0.0.5:9999/ --address http://10.0.0.6:9999/',
          'tickring groups create -f group.json',
        )}\nA file holds the body of POST /v1/groups: {"appName", "title", "addressType": "AUTO"|"MANUAL", "addressList"}.\nWithout --address-type, a group with addresses is MANUAL, else AUTO (its executors register).\n`,
      ),
  ).action(
    run<GroupFlags>(async (ctx, _args, flags) => {
      const body = { ...(flags.file ? await ctx.readJsonFile(flags.file) : {}), ...groupFields(flags) };
      if (body.addressType === undefined) {
        const list = body.addressList;
        body.addressType = (Array.isArray(list) ? list.length > 0 : Boolean(list)) ? 'MANUAL' : 'AUTO';
      }
      if (body.appName === undefined || body.title === undefined) {
        throw new UsageError('a group needs --app <appName> and --title <title> (or a file with them, -f)');
      }
      const client = await ctx.client();
      const group = await client.createGroup({ body: body as unknown as GroupCreate });
      if (ctx.json) return ctx.out.json(group);
      ctx.out.note(`Created group ${group.appName}.`);
      showGroup(ctx, group);
    }),
  );

  groupFlags(
    groups
      .command('edit')
      .description('change a group: the flags given, or the fields of a JSON file (flags override the file)')
      .argument('<appName>', "the group's appName (it cannot change)")
      .addHelpText(
        'after',
        examples(
          'tickring groups edit my-app --title "My app (prod)"',
          'tickring groups edit billing --address-type MANUAL --address http://10.0.0.7:9999/',
          'tickring groups edit billing --alert-channel 5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11 --alert-channel 0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f',
          'tickring groups edit billing --clear-alert-channels',
          'tickring groups get my-app --json > g.json && $EDITOR g.json && tickring groups edit my-app -f g.json',
        ),
      ),
    false,
  ).action(
    run<GroupFlags>(async (ctx, [appName], flags) => {
      const body = { ...(flags.file ? await ctx.readJsonFile(flags.file) : {}), ...groupFields(flags) };
      if (Object.keys(body).length === 0) {
        throw new UsageError(
          'nothing to change: give --title, --address-type, --address, --alert-channel, --clear-alert-channels or -f <file>',
        );
      }
      const client = await ctx.client();
      const group = await client.updateGroup({
        path: { appName: appName as string },
        body: body as unknown as GroupUpdate,
      });
      if (ctx.json) return ctx.out.json(group);
      ctx.out.note(`Changed group ${group.appName}.`);
      showGroup(ctx, group);
    }),
  );

  groups
    .command('rm')
    .description('delete a group (refused while jobs use it)')
    .argument('<appName>', "the group's appName")
    .option('-y, --yes', 'do not ask')
    .addHelpText('after', examples('tickring groups rm my-app', 'tickring groups rm my-app --yes'))
    .action(
      run<{ yes?: boolean }>(async (ctx, [appName], opts) => {
        await confirmDelete(ctx, `Delete group ${appName}?`, opts.yes);
        const client = await ctx.client();
        await client.deleteGroup({ path: { appName: appName as string } });
        if (!ctx.json) ctx.out.note(`Deleted group ${appName}.`);
      }),
    );
}

function groupFlags(cmd: Command, withApp = true): Command {
  if (withApp) cmd.option('--app <appName>', "the executors' appName (4-64 of A-Z a-z 0-9 _ . -)");
  return cmd
    .option('--title <title>', 'a name for people')
    .option(
      '--address-type <type>',
      'AUTO (executors register) or MANUAL (the --address list)',
      oneOf(['AUTO', 'MANUAL']),
    )
    .option('--address <url>', 'an executor address, http(s) URL or lambda:<function> (repeatable)', collect)
    .option(
      '--alert-channel <id>',
      "an alert channel of the group's jobs that name none of their own (repeatable; the list replaces the group's)",
      collect,
    )
    .option('--clear-alert-channels', "the group's jobs that name no channel of their own alert nowhere")
    .option('-f, --file <file>', 'a JSON file with the fields (- for stdin)');
}

function groupFields(flags: GroupFlags): Record<string, unknown> {
  if (flags.alertChannel !== undefined && flags.clearAlertChannels) {
    throw new UsageError('give --alert-channel or --clear-alert-channels, not both');
  }
  return {
    ...(flags.app === undefined ? {} : { appName: flags.app }),
    ...(flags.title === undefined ? {} : { title: flags.title }),
    ...(flags.addressType === undefined ? {} : { addressType: flags.addressType }),
    ...(flags.address === undefined ? {} : { addressList: flags.address }),
    ...(flags.alertChannel === undefined ? {} : { alertChannels: flags.alertChannel }),
    ...(flags.clearAlertChannels ? { alertChannels: [] } : {}),
  };
}

function showGroup(ctx: Context, g: Group): void {
  ctx.out.details([
    ['appName', g.appName],
    ['title', g.title],
    ['addressType', g.addressType],
    ['addresses', g.addressList.length === 0 ? '-' : g.addressList.join(', ')],
    ['own token', g.accessTokenSetAt ? `set ${ctx.out.when(g.accessTokenSetAt)}` : 'no (the global token)'],
    ['alert channels', g.alertChannels.length === 0 ? '-' : g.alertChannels.join(', ')],
    ['created', ctx.out.when(g.createdAt)],
    ['updated', ctx.out.when(g.updatedAt)],
  ]);
}

/** Asks on a terminal; elsewhere `--yes` is needed. */
export async function confirmDelete(ctx: Context, question: string, yes: boolean | undefined): Promise<void> {
  await confirmAction(ctx, question, yes, { verb: 'delete', done: 'deleted' });
}

/** Asks `question` on a terminal (no: exit 1, "not <done>"); elsewhere `--yes` is needed (exit 2). */
export async function confirmAction(
  ctx: Context,
  question: string,
  yes: boolean | undefined,
  words: { readonly verb: string; readonly done: string },
): Promise<void> {
  if (yes) return;
  if (!canAsk(ctx.io)) throw new UsageError(`not asking without a terminal: add --yes to ${words.verb}`);
  if (!(await confirm(ctx.io, question))) throw new CommandFailedError(`not ${words.done}`);
}
