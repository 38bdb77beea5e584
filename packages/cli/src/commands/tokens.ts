/**
 * `tickring tokens ls|create|revoke|rotate-bootstrap` (`/v1/tokens`, admins): API tokens for
 * automation, and the bootstrap admin token. A new token's secret is printed once, alone on stdout
 * (so `--json`, `$(...)` and pipes capture it), with a line on stderr saying it is shown only now;
 * listings never show a secret (the server keeps only hashes).
 */
import type { ApiTokenCreate } from '@tickring/client';
import { type Command, InvalidArgumentError } from 'commander';
import { SESSION_TOKEN_PREFIX } from '../config.js';
import type { ActionRunner } from '../context.js';
import { UsageError } from '../errors.js';
import { type Expiry, parseExpiresAt, parseExpiresIn } from '../time.js';
import { examples } from './args.js';
import {
  formatGrant,
  formatGroups,
  type GrantFlags,
  grantFields,
  grantOptions,
  ROLES_HELP,
} from './grant.js';
import { confirmAction } from './groups.js';

interface CreateFlags extends GrantFlags {
  readonly name?: string;
  readonly expiresIn?: Expiry;
  readonly expiresAt?: string;
}

const API_TOKEN_PREFIX = 'trk_';

export function registerTokens(program: Command, run: ActionRunner, now: () => number): void {
  const tokens = program
    .command('tokens')
    .description('API tokens for automation (admins only): list, create, revoke; rotate the bootstrap token')
    .addHelpText(
      'after',
      examples(
        'tickring tokens ls',
        'tickring tokens create --name ci-deploy --role operator --group billing --expires-in 90d',
        'tickring tokens revoke 4f9c2a7be01d5c33',
      ),
    );

  tokens
    .command('ls')
    .description('list API tokens, newest first (never their secrets); revoked and expired ones for 30 days')
    .addHelpText(
      'after',
      examples(
        'tickring tokens ls',
        'tickring tokens ls --json | jq -r ".items[] | select(.status == \\"active\\") | .name"',
      ),
    )
    .action(
      run(async (ctx) => {
        const client = await ctx.client();
        const list = await client.listApiTokens();
        if (ctx.json) return ctx.out.json(list);
        if (list.items.length === 0) return ctx.out.note('No API tokens yet: tickring tokens create --help');
        const { out } = ctx;
        out.table(
          ['ID', 'NAME', 'ROLE', 'GROUPS', 'STATUS', 'EXPIRES', 'LAST USED', 'CREATED BY'],
          list.items.map((t) => [
            t.id,
            t.name,
            t.glue && t.role === 'operator' ? `${t.role} +glue` : t.role,
            formatGroups(t.groups),
            t.status === 'active' ? out.c.green(t.status) : out.c.yellow(t.status),
            t.status === 'revoked' ? `revoked ${out.shortWhen(t.revokedAt)}` : out.shortWhen(t.expiresAt),
            t.lastUsedAt ? out.shortWhen(t.lastUsedAt) : '-',
            t.createdBy,
          ]),
        );
      }),
    );

  grantOptions(
    tokens
      .command('create')
      .description('create an API token; its secret is printed once, on stdout')
      .option('--name <name>', 'a name, unique among active tokens (the audit log says token:<name>)')
      .option(
        '--expires-in <span>',
        'expires after 30d, 12w, 1y (365 d), 12h (a bare number is days)',
        (value: string) => {
          try {
            return parseExpiresIn(value, now());
          } catch (err) {
            throw new InvalidArgumentError((err as Error).message);
          }
        },
      )
      .option(
        '--expires-at <time>',
        'expires then: an ISO-8601 time (2030-06-30T00:00:00Z) or date',
        (value: string) => {
          try {
            return parseExpiresAt(value);
          } catch (err) {
            throw new InvalidArgumentError((err as Error).message);
          }
        },
      ),
  )
    .addHelpText(
      'after',
      `${examples(
        'tickring tokens create --name ci-deploy --role operator --group billing --expires-in 90d',
        'tickring tokens create --name grafana --role viewer --all-groups --expires-at 2030-06-30T00:00:00Z',
        'TOKEN=$(tickring tokens create --name nightly --role operator --group etl --expires-in 30d)',
        'tickring tokens create --name ci --role viewer --group billing --expires-in 1y --json > token.json',
      )}
The token is printed once on stdout (with --json: the server's answer, its "token" field included),
and never again: store it now. A note on stderr says so. Use it as TICKRING_TOKEN, or save it with
\`tickring login --token-stdin\`. Its grant can be no wider than yours; it expires at most a year ahead.
${ROLES_HELP}
`,
    )
    .action(
      run<CreateFlags>(async (ctx, _args, flags) => {
        if (flags.name === undefined || flags.role === undefined) {
          throw new UsageError('a token needs --name <name> and --role admin|operator|viewer');
        }
        if (flags.expiresIn !== undefined && flags.expiresAt !== undefined) {
          throw new UsageError('give the expiry with --expires-in or --expires-at, not both');
        }
        const expiry: Expiry | undefined =
          flags.expiresIn ?? (flags.expiresAt === undefined ? undefined : { expiresAt: flags.expiresAt });
        if (expiry === undefined) {
          throw new UsageError('a token needs an expiry: --expires-in 90d, or --expires-at <ISO time>');
        }
        const client = await ctx.client();
        const created = await client.createApiToken({
          body: { name: flags.name, ...grantFields(flags), ...expiry } as ApiTokenCreate,
        });
        const { out } = ctx;
        out.note(
          `Created API token ${created.name} (id ${created.id}), ${formatGrant(created)}, expiring ${out.when(created.expiresAt, out.ce)}.`,
        );
        out.note(
          out.ce.yellow(
            `The token${ctx.json ? ' ("token" below)' : ' below'} is shown only now, never again: store it now (e.g. in your CI's secrets).`,
          ),
        );
        if (ctx.json) return out.json(created);
        out.line(created.token);
      }),
    );

  tokens
    .command('revoke')
    .description('revoke an API token: it stops working at once')
    .argument(
      '<id>',
      "the token's id (tickring tokens ls; the part of the token between trk_ and the next _)",
    )
    .option('-y, --yes', 'do not ask')
    .addHelpText(
      'after',
      examples('tickring tokens revoke 4f9c2a7be01d5c33', 'tickring tokens revoke 4f9c2a7be01d5c33 --yes'),
    )
    .action(
      run<{ yes?: boolean }>(async (ctx, [id], opts) => {
        if ((id as string).startsWith(API_TOKEN_PREFIX)) {
          throw new UsageError(
            "give the token's id (tickring tokens ls), not the token itself: that is a secret to keep out of shell history",
          );
        }
        await confirmAction(ctx, `Revoke API token ${id}? It stops working at once.`, opts.yes, {
          verb: 'revoke',
          done: 'revoked',
        });
        const client = await ctx.client();
        await client.revokeApiToken({ path: { id: id as string } });
        if (!ctx.json) ctx.out.note(`Revoked API token ${id}.`);
      }),
    );

  tokens
    .command('rotate-bootstrap')
    .description('replace the bootstrap admin token by a new random one, printed once on stdout')
    .option('-y, --yes', 'do not ask')
    .addHelpText(
      'after',
      `${examples(
        'tickring tokens rotate-bootstrap',
        'tickring tokens rotate-bootstrap --yes --json > bootstrap.json',
      )}
The configured admin token (TICKRING_ADMIN_TOKEN or its secret), or the one rotated before, stops
working at once; only the new one works as the bootstrap token. It is printed once, never again.
`,
    )
    .action(
      run<{ yes?: boolean }>(async (ctx, _args, opts) => {
        await confirmAction(
          ctx,
          'Rotate the bootstrap admin token? The one in use now stops working at once.',
          opts.yes,
          { verb: 'rotate', done: 'rotated' },
        );
        const client = await ctx.client();
        const connection = await ctx.connection();
        const rotated = await client.rotateBootstrapToken();
        const { out } = ctx;
        out.note(`Rotated the bootstrap admin token (by ${rotated.rotatedBy}).`);
        out.note(
          out.ce.yellow(
            `The new token${ctx.json ? ' ("token" below)' : ' below'} is shown only now, never again: store it now. The old one no longer works.`,
          ),
        );
        if (usesBootstrap(connection.token)) {
          out.warn(
            `you called with the old bootstrap token${ctx.io.env.TICKRING_TOKEN ? ' (TICKRING_TOKEN)' : `, saved in profile "${connection.profile}"`}: use the new one (tickring login --token-stdin)`,
          );
        }
        if (ctx.json) return out.json(rotated);
        out.line(rotated.token);
      }),
    );
}

/** Whether a token is the bootstrap token (neither a session nor an API token). */
function usesBootstrap(token: string): boolean {
  return !token.startsWith(SESSION_TOKEN_PREFIX) && !token.startsWith(API_TOKEN_PREFIX);
}
