/**
 * The `tickring` command line: commander set up with every command, writing through the injected
 * streams, and {@link main}, which runs one command line and returns its exit code (no process.exit,
 * so it runs inside tests).
 */
import { Command } from 'commander';
import { registerAlerts } from './commands/alerts.js';
import { registerAudit } from './commands/audit.js';
import { registerBackfills } from './commands/backfills.js';
import { registerCalendars } from './commands/calendars.js';
import { registerDashboard, registerExecutors } from './commands/executors.js';
import { registerExport } from './commands/export.js';
import { registerGroups } from './commands/groups.js';
import { registerImport } from './commands/import.js';
import { registerJobs } from './commands/jobs.js';
import { registerLogin } from './commands/login.js';
import { registerPreview } from './commands/preview.js';
import { registerRuns } from './commands/runs.js';
import { registerServer } from './commands/server.js';
import { registerTokens } from './commands/tokens.js';
import { registerUsers } from './commands/users.js';
import { registerWorkflowRuns } from './commands/wf-runs.js';
import { registerWhoami } from './commands/whoami.js';
import { registerWorkflows } from './commands/workflows.js';
import { actionRunner, VERSION } from './context.js';
import { reportError } from './errors.js';
import type { Io } from './io.js';
import { paletteFor } from './output.js';

const FOOTER = `
The server and token (or session) come from the profile saved by \`tickring login\` (--profile or
TICKRING_PROFILE picks one), overridden by TICKRING_URL and TICKRING_TOKEN, and --url.
Exit codes: 0 done, 1 refused or failed (the server's error on stderr), 2 usage error, 130 Ctrl-C.
`;

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const errColors = paletteFor(io.stderr, io.env);
  const program = new Command('tickring');
  program
    .description(
      'The tickring command line: groups, jobs, schedules, runs and their logs, workflows and their runs, calendars, backfills, alert channels, silences and alerts, executors, imports; users, API tokens and the audit log.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help for the command')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(s.replace(/^error:/, errColors.red('error:'))),
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .showHelpAfterError('(add --help for usage)')
    .option('--url <url>', "the server, e.g. http://127.0.0.1:8080 (instead of the profile's / TICKRING_URL)")
    .option(
      '--profile <name>',
      'the profile of the config file to use (default: TICKRING_PROFILE or "default")',
    )
    .option('--json', "print the server's JSON (for scripts) instead of tables")
    .addHelpText(
      'after',
      `\nExamples:\n  $ tickring login --url http://127.0.0.1:8080 --user ana\n  $ tickring jobs ls\n  $ tickring runs ls --since 1h --status fail\n  $ tickring audit --job 7\n${FOOTER}`,
    );

  const run = actionRunner(io, setExit);
  registerLogin(program, run);
  registerWhoami(program, run);
  registerGroups(program, run);
  registerJobs(program, run, io.now);
  registerBackfills(program, run);
  registerAlerts(program, run, io.now);
  registerPreview(program, run, io.now);
  registerRuns(program, run, io.now);
  registerWorkflows(program, run, io.now);
  registerWorkflowRuns(program, run);
  registerCalendars(program, run);
  registerExecutors(program, run);
  registerDashboard(program, run);
  registerImport(program, run);
  registerExport(program, run);
  registerUsers(program, run);
  registerTokens(program, run, io.now);
  registerAudit(program, run, io.now);
  registerServer(program, setExit);
  return program;
}

/** Runs one command line (without the node and script arguments); resolves to its exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(io, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (err) {
    return reportError(err, io);
  }
}
