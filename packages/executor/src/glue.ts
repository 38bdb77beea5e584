import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { GLUE_SCRIPT_TYPES, type GlueScriptType } from '@tickring/protocol';
import type { JobContext, JobHandler } from './job-context.js';

export interface ScriptHandlerOptions {
  jobId: number;
  glueType: GlueScriptType;
  glueSource: string;
  glueUpdatetime: number;
  logDir: string;
  /** Interpreter per GLUE type, defaults as XXL-JOB (`bash`, `python3`, `node`, `pwsh`, `php`, `python`). */
  interpreters?: Partial<Record<GlueScriptType, string>> | undefined;
  /** After SIGTERM to the script's process group, how long before SIGKILL. */
  killGraceMs: number;
}

/** `{logDir}/gluesource/{jobId}_{glueUpdatetime}{suffix}`. */
export function glueSourcePath(
  logDir: string,
  jobId: number,
  glueUpdatetime: number,
  glueType: GlueScriptType,
): string {
  return join(logDir, 'gluesource', `${jobId}_${glueUpdatetime}${GLUE_SCRIPT_TYPES[glueType].suffix}`);
}

/**
 * A handler that runs a GLUE script as XXL-JOB's ScriptJobHandler does: the source is written once per
 * `glueUpdatetime` (older versions of the job's script are deleted), then run as
 * `<interpreter> <file> <param> <shardIndex> <shardTotal>` in its own process group; stdout and stderr go
 * line by line to the run's log; exit code 0 is success. Aborting the run's signal kills the whole group
 * (SIGTERM, then SIGKILL after `killGraceMs`).
 */
export function createScriptHandler(opts: ScriptHandlerOptions): JobHandler {
  const file = glueSourcePath(opts.logDir, opts.jobId, opts.glueUpdatetime, opts.glueType);
  const command = opts.interpreters?.[opts.glueType] ?? GLUE_SCRIPT_TYPES[opts.glueType].command;
  let prepared: Promise<void> | undefined;

  const prepare = async () => {
    const dir = join(opts.logDir, 'gluesource');
    await mkdir(dir, { recursive: true });
    const mine = `${opts.jobId}_`;
    for (const name of await readdir(dir)) {
      if (name.startsWith(mine) && join(dir, name) !== file) await rm(join(dir, name), { force: true });
    }
    if (!existsSync(file)) await writeFile(file, opts.glueSource, { mode: 0o600 });
  };

  return async (ctx: JobContext) => {
    prepared ??= prepare().catch((err: unknown) => {
      prepared = undefined;
      throw err;
    });
    await prepared;
    if (!existsSync(file)) await writeFile(file, opts.glueSource, { mode: 0o600 });
    ctx.log(`----------- script file:${file} -----------`);
    const exit = await runScript(
      command,
      [file, ctx.param, String(ctx.shardIndex), String(ctx.shardTotal)],
      ctx,
      opts,
    );
    if (exit.error) return ctx.fail(`GLUE interpreter "${command}" could not be started: ${exit.error}`);
    if (exit.code === 0) return;
    ctx.fail(
      exit.code === null
        ? `script killed by signal ${exit.signal}`
        : `script exit value(${exit.code}) is failed`,
    );
  };
}

interface ScriptExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: string;
}

function runScript(command: string, args: string[], ctx: JobContext, opts: ScriptHandlerOptions) {
  return new Promise<ScriptExit>((resolve) => {
    const child = spawn(command, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let spawnError: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const signalGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is already gone
      }
    };
    const onAbort = () => {
      ctx.log(
        `----------- script aborted (${String(ctx.signal.reason)}), killing process group ${child.pid}`,
      );
      signalGroup('SIGTERM');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), opts.killGraceMs);
      killTimer.unref();
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });

    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
        ctx.log(line),
      );
    }
    child.on('error', (err) => {
      spawnError = err.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      resolve(spawnError === undefined ? { code, signal } : { code, signal, error: spawnError });
    });
  });
}
