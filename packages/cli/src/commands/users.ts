/**
 * `tickring users ls|get|create|edit|rm` (`/v1/users`, admins) and `tickring passwd` (one's own
 * password, `PUT /v1/me/password`). Passwords are asked for without echo or read from stdin, and
 * never printed.
 */
import type { User, UserCreate, UserUpdate } from '@tickring/client';
import type { Command } from 'commander';
import { SESSION_TOKEN_PREFIX } from '../config.js';
import type { ActionRunner, Context } from '../context.js';
import { UsageError } from '../errors.js';
import { askNewPassword, readNewPassword, stdinLines } from '../password.js';
import { askSecret, canAsk } from '../prompt.js';
import { examples } from './args.js';
import {
  formatGrant,
  formatGroups,
  type GrantFlags,
  grantFields,
  grantOptions,
  ROLES_HELP,
} from './grant.js';
import { confirmDelete } from './groups.js';

interface CreateFlags extends GrantFlags {
  readonly username?: string;
  readonly displayName?: string;
  readonly passwordStdin?: boolean;
}

interface EditFlags extends GrantFlags {
  readonly displayName?: string;
  readonly disable?: boolean;
  readonly enable?: boolean;
  readonly resetPassword?: boolean;
  readonly passwordStdin?: boolean;
}

export function registerUsers(program: Command, run: ActionRunner): void {
  const users = program
    .command('users')
    .description('people who sign in (admins only): list, show, create, edit, delete')
    .addHelpText(
      'after',
      `${examples(
        'tickring users ls',
        'tickring users create --username ana --display-name "Ana Lima" --role operator --group billing --group reports',
        'tickring users edit ana --disable',
      )}
${ROLES_HELP}
`,
    );

  users
    .command('ls')
    .description('list every user')
    .addHelpText(
      'after',
      examples('tickring users ls', 'tickring users ls --json | jq -r ".items[].username"'),
    )
    .action(
      run(async (ctx) => {
        const client = await ctx.client();
        const list = await client.listUsers();
        if (ctx.json) return ctx.out.json(list);
        if (list.items.length === 0) return ctx.out.note('No users yet: tickring users create --help');
        ctx.out.table(
          ['USERNAME', 'NAME', 'ROLE', 'GROUPS', 'GLUE', 'STATE', 'LAST LOGIN'],
          list.items.map((u) => [
            u.username,
            u.displayName,
            u.role,
            formatGroups(u.groups),
            u.glue ? 'yes' : 'no',
            u.disabled ? ctx.out.c.yellow('disabled') : 'active',
            u.lastLoginAt ? ctx.out.shortWhen(u.lastLoginAt) : '-',
          ]),
        );
      }),
    );

  users
    .command('get')
    .description('show one user')
    .argument('<username>', "the user's username")
    .addHelpText('after', examples('tickring users get ana', 'tickring users get ana --json'))
    .action(
      run(async (ctx, [username]) => {
        const client = await ctx.client();
        const user = await client.getUser({ path: { username: username as string } });
        if (ctx.json) return ctx.out.json(user);
        showUser(ctx, user);
      }),
    );

  grantOptions(
    users
      .command('create')
      .description(
        'create a user; the password is asked for twice without echo (or read with --password-stdin)',
      )
      .option('--username <username>', '3-64 letters, digits, ".", "_" and "-" (cannot change later)')
      .option('--display-name <name>', 'a name for people (default: the username)')
      .option('--password-stdin', "read the password from stdin's first line"),
  )
    .addHelpText(
      'after',
      `${examples(
        'tickring users create --username ana --display-name "Ana Lima" --role operator --group billing --group reports',
        'tickring users create --username root-ops --role admin',
        'tickring users create --username auditor --role viewer --all-groups',
        'pass show tickring/ana | tickring users create --username ana --role operator --group billing --glue --password-stdin',
      )}
The password: at least 12 characters, not containing the username, not one character repeated. It is
never shown again (the server keeps only a hash). The user signs in with \`tickring login --user <username>\`.
${ROLES_HELP}
`,
    )
    .action(
      run<CreateFlags>(async (ctx, _args, flags) => {
        if (flags.username === undefined || flags.role === undefined) {
          throw new UsageError('a user needs --username <username> and --role admin|operator|viewer');
        }
        const grant = grantFields(flags);
        const client = await ctx.client();
        const password = await readNewPassword(ctx.io, {
          fromStdin: flags.passwordStdin === true,
          question: `Password for ${flags.username}: `,
        });
        const body = {
          username: flags.username,
          ...(flags.displayName === undefined ? {} : { displayName: flags.displayName }),
          password,
          ...grant,
        } as UserCreate;
        const user = await client.createUser({ body });
        if (ctx.json) return ctx.out.json(user);
        ctx.out.note(
          `Created user ${user.username}: they sign in with tickring login --user ${user.username}`,
        );
        showUser(ctx, user);
      }),
    );

  grantOptions(
    users
      .command('edit')
      .description("change a user: the flags given (--group replaces the user's groups)")
      .argument('<username>', "the user's username (it cannot change)")
      .option('--display-name <name>', 'a name for people')
      .option('--disable', 'lock the user out (their sessions end)')
      .option('--enable', 'let a disabled user sign in again')
      .option('--reset-password', 'set a new password, asked for twice without echo')
      .option('--password-stdin', "set a new password, read from stdin's first line"),
    { negatable: true },
  )
    .addHelpText(
      'after',
      `${examples(
        'tickring users edit ana --group billing --group reports --group etl',
        'tickring users edit ana --role viewer --all-groups',
        'tickring users edit ana --glue',
        'tickring users edit ana --disable',
        'tickring users edit ana --reset-password',
      )}
A new password, a changed role, groups or GLUE, or --disable end the user's sessions. Nobody disables
themselves.
${ROLES_HELP}
`,
    )
    .action(
      run<EditFlags>(async (ctx, [username], flags) => {
        if (flags.disable && flags.enable) throw new UsageError('give --disable or --enable, not both');
        if (flags.resetPassword && flags.passwordStdin) {
          throw new UsageError('give the new password with --reset-password or --password-stdin, not both');
        }
        const body: Record<string, unknown> = {
          ...(flags.displayName === undefined ? {} : { displayName: flags.displayName }),
          ...grantFields(flags),
          ...(flags.disable ? { disabled: true } : flags.enable ? { disabled: false } : {}),
        };
        const settingPassword = flags.resetPassword === true || flags.passwordStdin === true;
        if (Object.keys(body).length === 0 && !settingPassword) {
          throw new UsageError(
            'nothing to change: give --display-name, --role, --group, --all-groups, --glue, --no-glue, --disable, --enable or --reset-password',
          );
        }
        const client = await ctx.client();
        if (settingPassword) {
          body.password = await readNewPassword(ctx.io, {
            fromStdin: flags.passwordStdin === true,
            question: `New password for ${username}: `,
          });
        }
        const user = await client.updateUser({
          path: { username: username as string },
          body: body as UserUpdate,
        });
        if (ctx.json) return ctx.out.json(user);
        const ends =
          settingPassword ||
          body.role !== undefined ||
          body.groups !== undefined ||
          body.glue !== undefined ||
          body.disabled === true;
        ctx.out.note(`Changed user ${user.username}.${ends ? ' Their sessions have ended.' : ''}`);
        showUser(ctx, user);
      }),
    );

  users
    .command('rm')
    .description('delete a user (their sessions end)')
    .argument('<username>', "the user's username")
    .option('-y, --yes', 'do not ask')
    .addHelpText('after', examples('tickring users rm ana', 'tickring users rm ana --yes'))
    .action(
      run<{ yes?: boolean }>(async (ctx, [username], opts) => {
        await confirmDelete(ctx, `Delete user ${username}?`, opts.yes);
        const client = await ctx.client();
        await client.deleteUser({ path: { username: username as string } });
        if (!ctx.json) ctx.out.note(`Deleted user ${username}.`);
      }),
    );

  program
    .command('passwd')
    .description(
      'change your own password (signed in with login --user): the current one, then the new one twice',
    )
    .option('--password-stdin', 'read the current password and the new one from stdin, one a line')
    .addHelpText(
      'after',
      `${examples('tickring passwd', 'printf "%s\\n%s\\n" "$OLD" "$NEW" | tickring passwd --password-stdin')}
Your other sessions end; this one goes on. A wrong current password counts as a failed sign-in.
`,
    )
    .action(
      run<{ passwordStdin?: boolean }>(async (ctx, _args, opts) => {
        const connection = await ctx.connection();
        if (!connection.token.startsWith(SESSION_TOKEN_PREFIX)) {
          throw new UsageError(
            'only a signed-in user has a password to change: sign in with `tickring login --user <username>` first (an admin sets a password with `tickring users edit <username> --reset-password`)',
          );
        }
        const client = await ctx.client();
        let currentPassword: string;
        let newPassword: string;
        if (opts.passwordStdin) {
          [currentPassword, newPassword] = (await stdinLines(ctx.io, [
            'the current password',
            'the new password',
          ])) as [string, string];
        } else {
          if (!canAsk(ctx.io)) {
            throw new UsageError('no terminal to ask for the passwords: pipe them in with --password-stdin');
          }
          const whose = connection.session ? ` of ${connection.session.username}` : '';
          currentPassword = await askSecret(ctx.io, `Current password${whose}: `);
          newPassword = await askNewPassword(ctx.io, 'New password: ');
        }
        const user = await client.changeOwnPassword({ body: { currentPassword, newPassword } });
        if (ctx.json) return ctx.out.json(user);
        ctx.out.line(
          `Changed the password of ${user.username}. Your other sessions have ended; this one goes on.`,
        );
      }),
    );
}

function showUser(ctx: Context, u: User): void {
  const { out } = ctx;
  out.details([
    ['username', u.username],
    ['name', u.displayName],
    ['role', formatGrant(u)],
    ['groups', formatGroups(u.groups)],
    ['glue', u.glue ? 'yes' : 'no'],
    ['state', u.disabled ? out.c.yellow('disabled (cannot sign in)') : 'active'],
    ['last login', u.lastLoginAt ? out.when(u.lastLoginAt) : 'never'],
    ['password set', out.when(u.passwordChangedAt)],
    ['created', `${out.when(u.createdAt)} by ${u.createdBy}`],
    ['updated', out.when(u.updatedAt)],
    ['version', String(u.version)],
  ]);
}
