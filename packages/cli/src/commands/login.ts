/**
 * `tickring login` and `tickring logout`: the profiles of the config file. A profile holds a token (an
 * admin or API token, `login`) or a signed-in user's session (`login --user`, `POST /v1/sessions`),
 * which `logout` also ends on the server.
 */
import { type Me, type Session, TickringApiError } from '@tickring/client';
import type { Command } from 'commander';
import {
  configPath,
  DEFAULT_PROFILE,
  isSessionProfile,
  loadConfig,
  normalizeUrl,
  type Profile,
  profileName,
  removeProfile,
  saveProfile,
} from '../config.js';
import type { ActionRunner, Context } from '../context.js';
import { CommandFailedError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { toMillis } from '../output.js';
import { readPassword } from '../password.js';
import { askLine, askSecret, canAsk, readAll } from '../prompt.js';
import { examples } from './args.js';
import { formatGrant } from './grant.js';

interface LoginOptions {
  readonly tokenStdin?: boolean;
  readonly token?: string;
  readonly user?: string;
  readonly passwordStdin?: boolean;
}

export function registerLogin(program: Command, run: ActionRunner): void {
  program
    .command('login')
    .description(
      "sign in as a user (--user: a session), or save a server's URL and a token, as a profile once the server has taken it",
    )
    .option('--user <username>', 'sign in as this user with their password (a session, saved in the profile)')
    .option('--password-stdin', "with --user: read the password from stdin's first line")
    .option('--token-stdin', 'read the token from stdin (e.g. piped from a secret store)')
    .option(
      '--token <token>',
      'the token itself (it lands in your shell history: prefer the prompt or --token-stdin)',
    )
    .addHelpText(
      'after',
      `${examples(
        'tickring login --url http://127.0.0.1:8080 --user ana',
        'pass show tickring/ana | tickring login --url https://tickring.example.com --user ana --password-stdin --profile prod',
        'tickring login --url http://127.0.0.1:8080',
        'pass show tickring/ci | tickring login --url https://tickring.example.com --token-stdin --profile ci',
      )}
With --user, the password is asked for without echo on a terminal and sent to POST /v1/sessions; the
session's token is saved with the username and its end (it ends after some time unused, 30 minutes by
default, and at the latest 12 hours after signing in: then run login --user again).
Without --user, the token (the bootstrap admin token, or an API token from \`tickring tokens create\`)
is asked for without echo and checked with GET /v1/me before it is saved.
The profile goes in $TICKRING_CONFIG, else $XDG_CONFIG_HOME/tickring/config.json, else
~/.config/tickring/config.json (mode 0600, directory 0700). --profile (or TICKRING_PROFILE) names the
profile; the default is "${DEFAULT_PROFILE}".
`,
    )
    .action(
      run<LoginOptions>(async (ctx, _args, opts) => {
        const { io, out } = ctx;
        const path = configPath(io.env);
        const name = profileName(ctx.globals.profile, io.env);
        const existing = (await loadConfig(path)).config.profiles[name];
        if (opts.user !== undefined && (opts.token !== undefined || opts.tokenStdin)) {
          throw new UsageError('sign in with --user or give a token (--token-stdin, --token), not both');
        }
        if (opts.passwordStdin && opts.user === undefined) {
          throw new UsageError('--password-stdin goes with --user <username>');
        }

        let url = ctx.globals.url || io.env.TICKRING_URL || existing?.url;
        if (!url) {
          if (!canAsk(io))
            throw new UsageError('give the server with --url <url> (e.g. http://127.0.0.1:8080)');
          url = (await askLine(io, 'tickring URL (e.g. http://127.0.0.1:8080): ')).trim();
        }
        url = normalizeUrl(url);

        const saved =
          opts.user !== undefined
            ? await signIn(ctx, url, opts.user, opts.passwordStdin === true)
            : await checkToken(ctx, url, await readToken(io, ctx, url, opts));
        await saveProfile(path, name, saved.profile);
        // A session the profile held before is not needed any more: end it (quietly, if it still works).
        if (isSessionProfile(existing) && existing.token !== saved.profile.token) {
          try {
            await ctx.makeClient(existing.url, existing.token).logout();
          } catch {
            // Expired already, or its server is elsewhere: it ends by itself.
          }
        }

        const { profile } = saved;
        if (ctx.json) {
          return out.json({
            profile: name,
            url,
            configFile: path,
            kind: saved.kind,
            name: saved.name,
            role: saved.grant.role,
            groups: saved.grant.groups,
            glue: saved.grant.glue,
            ...(profile.username === undefined
              ? {}
              : { username: profile.username, expiresAt: profile.expiresAt, endsAt: profile.endsAt }),
          });
        }
        out.line(`Logged in to ${url} as ${saved.who}, ${formatGrant(saved.grant)}.`);
        if (profile.username !== undefined) {
          const idle = saved.idleMs === undefined ? '' : `, sooner after ${spanWords(saved.idleMs)} unused`;
          out.line(`The session lasts until ${out.when(profile.endsAt)} at the latest${idle}.`);
        }
        out.line(`Saved as profile "${name}" in ${path} (readable by you only).`);
        if (io.env.TICKRING_URL || io.env.TICKRING_TOKEN) {
          out.warn(
            `${[io.env.TICKRING_URL ? 'TICKRING_URL' : '', io.env.TICKRING_TOKEN ? 'TICKRING_TOKEN' : ''].filter(Boolean).join(' and ')} set in this shell override the profile`,
          );
        }
      }),
    );

  program
    .command('logout')
    .description("end the profile's session on the server (when it holds one), and forget the profile")
    .addHelpText(
      'after',
      `${examples('tickring logout', 'tickring logout --profile prod')}
A profile saved by \`login --user\` holds a session: it is ended with DELETE /v1/sessions/current, so
its token no longer works anywhere. When the server cannot be reached or refuses, the profile is
removed here all the same (with a warning). A token (login without --user) is only forgotten here: an
API token is revoked with \`tickring tokens revoke <id>\`.
`,
    )
    .action(
      run(async (ctx) => {
        const { out } = ctx;
        const path = configPath(ctx.io.env);
        const name = profileName(ctx.globals.profile, ctx.io.env);
        const profile = (await loadConfig(path)).config.profiles[name];
        let sessionEnded: boolean | null = null;
        if (isSessionProfile(profile)) {
          sessionEnded = await endSession(ctx, profile);
        }
        const removed = await removeProfile(path, name);
        if (ctx.json) return out.json({ profile: name, removed, configFile: path, sessionEnded });
        if (isSessionProfile(profile) && sessionEnded) {
          out.line(`Signed out ${profile.username} from ${profile.url}.`);
        }
        out.line(
          removed
            ? `Removed profile "${name}" from ${path}.`
            : `No profile "${name}" in ${path}: nothing to do.`,
        );
      }),
    );
}

interface Saved {
  readonly profile: Profile;
  readonly kind: Me['kind'];
  /** As the audit log names the caller: the username, `token:<name>`, `bootstrap`. */
  readonly name: string;
  /** For people: "ana (Ana Lima)", "token:ci-deploy", "bootstrap". */
  readonly who: string;
  readonly grant: {
    readonly role: string;
    readonly groups: readonly string[] | string;
    readonly glue: boolean;
  };
  /** How long the session lasts unused. */
  readonly idleMs?: number;
}

/** `login --user`: the password, then POST /v1/sessions; nothing is saved when it is refused. */
async function signIn(ctx: Context, url: string, username: string, fromStdin: boolean): Promise<Saved> {
  const password = await readPassword(ctx.io, {
    fromStdin,
    question: `Password of ${username} at ${url}: `,
  });
  let session: Session;
  try {
    session = await ctx.makeClient(url).login({ body: { username, password } });
  } catch (err) {
    if (err instanceof TickringApiError && err.status === 401) {
      throw new CommandFailedError(`${url} did not sign ${username} in (${err.message}); nothing was saved`);
    }
    throw err;
  }
  const { user } = session;
  const signedInAt = toMillis(user.lastLoginAt);
  const idleUntil = toMillis(session.expiresAt);
  return {
    profile: {
      url,
      token: session.token,
      username: user.username,
      expiresAt: session.expiresAt,
      endsAt: session.endsAt,
    },
    kind: 'session',
    name: user.username,
    who:
      user.displayName && user.displayName !== user.username
        ? `${user.username} (${user.displayName})`
        : user.username,
    grant: user,
    ...(signedInAt !== undefined && idleUntil !== undefined && idleUntil > signedInAt
      ? { idleMs: idleUntil - signedInAt }
      : {}),
  };
}

/** The token of `login` without --user: stdin, the flag, or asked without echo. */
async function readToken(io: Io, ctx: Context, url: string, opts: LoginOptions): Promise<string> {
  let token: string;
  if (opts.tokenStdin) {
    if (opts.token !== undefined)
      throw new UsageError('give the token with --token-stdin or --token, not both');
    token = (await readAll(io)).split(/\r?\n/, 1)[0]?.trim() ?? '';
  } else if (opts.token !== undefined) {
    ctx.out.warn('--token puts the token in your shell history; the prompt or --token-stdin do not');
    token = opts.token.trim();
  } else if (canAsk(io)) {
    token = (await askSecret(io, `Token for ${url} (the admin token or an API token): `)).trim();
  } else {
    throw new UsageError('no terminal to ask for the token: pipe it in with --token-stdin');
  }
  if (!token) throw new UsageError('the token is empty');
  return token;
}

/** An authenticated GET /v1/me with the token; nothing is saved when the server refuses it. */
async function checkToken(ctx: Context, url: string, token: string): Promise<Saved> {
  let me: Me;
  try {
    me = await ctx.makeClient(url, token).getMe();
  } catch (err) {
    if (err instanceof TickringApiError && (err.status === 401 || err.status === 403)) {
      throw new CommandFailedError(
        `${url} did not take the token (${err.error}: ${err.message}); nothing was saved`,
      );
    }
    throw err;
  }
  return { profile: { url, token }, kind: me.kind, name: me.name, who: me.name, grant: me };
}

/**
 * DELETE /v1/sessions/current with the profile's session: true when ended now, false when the server
 * no longer knew it (expired, ended); another failure is a warning (the profile goes all the same).
 */
async function endSession(ctx: Context, profile: Profile): Promise<boolean> {
  try {
    await ctx.makeClient(profile.url, profile.token).logout();
    return true;
  } catch (err) {
    if (err instanceof TickringApiError && err.status === 401) {
      ctx.out.note(`The session of ${profile.username} had already ended.`);
      return false;
    }
    const why = err instanceof Error ? err.message : String(err);
    const what = err instanceof TickringApiError ? `${err.error}: ${why}` : why;
    ctx.out.warn(`could not end the session on ${profile.url} (${what}); removing it here anyway`);
    return false;
  }
}

/** "30 min", "12 h", "1 h 30 min". */
function spanWords(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${Math.max(1, minutes)} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
