import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from '../e2e-stack.js';
import { waitFor } from '../stand-ins.js';

/**
 * The packages as a user gets them: `npm pack` of @tickring/protocol and @tickring/executor (of the
 * build `npm test` made first), the tarballs' file lists, an offline `npm install` of both tarballs into a
 * scratch project outside the repository, a plain-node ESM program that imports the SDK and runs a
 * job for a local tickring stack, and a strict TypeScript check of a user file against the packed
 * declarations.
 */

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const TYPE_ROOTS = join(REPO_ROOT, 'node_modules', '@types');
const PACKAGES = {
  protocol: join(REPO_ROOT, 'packages', 'protocol'),
  executor: join(REPO_ROOT, 'packages', 'executor'),
} as const;
const HANDLER = 'packInstallJob';

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const shown = (what: string, r: Ran) =>
  `${what} exited with ${r.code}\n--- stdout ---\n${r.stdout}\n--- stderr ---\n${r.stderr}`;

/**
 * npm reads `npm_config_*` from the environment: under `npm test` they carry the parent run's settings
 * (workspace, json, ...), which must not leak into the scratch project's npm. Where the cache and the
 * user's own configuration live is kept.
 */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_cache', 'npm_config_userconfig', 'npm_config_globalconfig']);
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.toLowerCase().startsWith('npm_') && !keep.has(key.toLowerCase())) continue;
    if (key === 'NODE_OPTIONS') continue; // no loader of the test runner in the user's node
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to its end; never throws (the caller asserts on the exit code with the output). */
function run(command: string, args: readonly string[], cwd: string, timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: childEnv(), timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({
          code,
          stdout: String(stdout),
          stderr: String(stderr || (err && !stderr ? err.message : '')),
        });
      },
    );
  });
}

interface PackResult {
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  readonly files: readonly { path: string }[];
}

async function pack(dir: string, destination: string): Promise<PackResult> {
  // --ignore-scripts: the prepack step (clean + build) would delete dist/ under the integration tests
  // running beside this one; `npm test` built it just before (pretest), and that build is what is packed.
  const result = await run(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', destination],
    dir,
    90_000,
  );
  if (result.code !== 0) throw new Error(shown(`npm pack in ${dir}`, result));
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    throw new Error(`npm pack --json in ${dir} did not print JSON\n${shown('npm pack', result)}`);
  }
  const [only] = parsed as PackResult[];
  if (!only || !Array.isArray(only.files)) throw new Error(`unexpected npm pack output: ${result.stdout}`);
  return only;
}

/** What a published package may hold: its manifest, README, LICENSE and the compiled JavaScript with its declarations. */
function unexpectedFiles(paths: readonly string[]): string[] {
  return paths.filter((path) => {
    if (path === 'package.json' || path === 'README.md' || path === 'LICENSE') return false;
    const compiled = /^dist\/.+\.(?:d\.ts|js)$/.test(path);
    const leaked =
      /\.test\./.test(path) ||
      /test-support|bench|infra|\/src\/|^src\//.test(path) ||
      /\.tsbuildinfo$/.test(path) ||
      (path.endsWith('.ts') && !path.endsWith('.d.ts'));
    return !compiled || leaked;
  });
}

/** The user's program: plain node, ESM, the SDK from the installed tarball, settings from the environment. */
const MAIN_MJS = `import { createExecutor, registerBuiltInHandlers } from '@tickring/executor';

const executor = createExecutor({
  appName: process.env.TICKRING_APP_NAME,
  adminAddresses: process.env.TICKRING_ADMIN_ADDRESSES,
  accessToken: process.env.TICKRING_ACCESS_TOKEN,
  host: '127.0.0.1',
  port: 0,
  logDir: process.env.EXECUTOR_LOG_DIR,
  logRetentionDays: 0,
});
registerBuiltInHandlers(executor);
executor.register('${HANDLER}', async (ctx) => {
  ctx.log('hello from the tarball, job %d, param=%s', ctx.jobId, ctx.param);
  return \`packed and installed: \${ctx.param}\`;
});
await executor.start();
console.log(JSON.stringify({ ready: true, address: executor.address, sdk: import.meta.resolve('@tickring/executor') }));

process.once('SIGTERM', () => {
  executor.stop().then(
    () => {
      console.log('stopped');
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
`;

/** A user's TypeScript: every public type a user names, used the way the README shows. */
const USER_TS = `import {
  builtInHandlers,
  createExecutor,
  type Executor,
  type ExecutorLogger,
  type ExecutorOptions,
  ExecutorOptionsError,
  type HandleCallbackParam,
  type JobContext,
  type JobHandler,
  type JobResult,
  JobTimeoutError,
  type LambdaContextLike,
  type LambdaExecutorOptions,
  type LambdaTriggerHandler,
  lambdaExecutor,
  registerBuiltInHandlers,
  silentLogger,
  type UrlAllowRule,
} from '@tickring/executor';
import {
  HANDLE_CODE,
  MSG,
  parseCallbackRequest,
  parseTriggerParam,
  payloadOf,
  type ReturnT,
  type TriggerParam,
} from '@tickring/protocol';

const logger: ExecutorLogger = {
  debug: () => {},
  info: (message, ...attributes) => console.log(message, ...attributes),
  warn: (message, ...attributes) => console.warn(message, ...attributes),
  error: (message, ...attributes) => console.error(message, ...attributes),
};

// Optional settings read from the environment may be undefined (exactOptionalPropertyTypes).
const options: ExecutorOptions = {
  appName: 'user-app',
  adminAddresses: ['http://127.0.0.1:8080', 'http://backup:8080/xxl-job-admin'],
  accessToken: process.env.TICKRING_ACCESS_TOKEN,
  port: 9999,
  host: process.env.EXECUTOR_HOST,
  address: process.env.EXECUTOR_ADDRESS,
  logDir: process.env.EXECUTOR_LOG_DIR,
  logRetentionDays: 7,
  enableGlue: false,
  glueInterpreters: { GLUE_PYTHON: '/usr/bin/python3' },
  httpAllowList: ['https://hooks.example.com/', /^https:\\/\\/[a-z]+\\.internal\\.example\\.com\\//],
  logger,
};
const executor: Executor = createExecutor(options);
const allowList: UrlAllowRule[] | undefined = process.env.ALLOW ? [process.env.ALLOW] : undefined;
registerBuiltInHandlers(executor, { httpAllowList: allowList });

const sync: JobHandler = async (ctx: JobContext) => {
  ctx.log('shard %d of %d, param %s', ctx.shardIndex, ctx.shardTotal, ctx.param);
  const trigger: Readonly<TriggerParam> = ctx.trigger;
  if (ctx.signal.aborted) return ctx.fail('aborted before the start');
  if (trigger.executorTimeout > 600) throw new JobTimeoutError('too long');
  return \`synced \${ctx.logId}\`;
};
executor.register('syncUsers', sync, { init: () => undefined, destroy: async () => {} });
executor.register('noResult', (ctx) => {
  ctx.success('explicit');
});

const explicit: JobResult = { handleCode: HANDLE_CODE.timeout, handleMsg: MSG.timeout };

const lambdaOptions: LambdaExecutorOptions = {
  handlers: { ...builtInHandlers({ httpAllowList: allowList }), syncUsers: { handler: sync, init: () => 1 } },
  adminAddresses: 'https://admin.example.com',
  accessToken: process.env.TICKRING_ACCESS_TOKEN,
  appName: 'user-lambda',
  logger: silentLogger,
  reportMarginMs: 3_000,
};
export const handler: LambdaTriggerHandler = lambdaExecutor(lambdaOptions);

export async function invokeLocally(event: unknown): Promise<number> {
  const context: LambdaContextLike = {
    getRemainingTimeInMillis: () => 30_000,
    awsRequestId: process.env.REQUEST_ID,
  };
  const reported: HandleCallbackParam = await handler(event, context);
  return reported.handleCode;
}

const trigger: TriggerParam = parseTriggerParam({ jobId: 1, logId: 2, executorHandler: 'syncUsers' });
const reply: ReturnT<string> = { code: 200, data: 'x' };
const payload: string | undefined = payloadOf(reply);
const results = parseCallbackRequest({ callbackList: [{ logId: 2, logDateTime: 1, handleCode: 200 }] });
const first = results[0]; // noUncheckedIndexedAccess: possibly undefined
const firstCode: number = first?.handleCode ?? 0;

try {
  createExecutor({ appName: 'x', adminAddresses: 'http://a', port: 1 });
} catch (err) {
  if (err instanceof ExecutorOptionsError) console.error(err.message);
}

export { explicit, firstCode, payload, trigger };
`;

/** One deliberate mistake: the compiler must refuse it, or the check above proves nothing. */
const BAD_TS = `import { createExecutor } from '@tickring/executor';

export const executor = createExecutor({
  appName: 42,
  adminAddresses: 'http://127.0.0.1:8080',
  accessToken: 'token',
  port: 9999,
});
`;

const tsconfig = (file: string) =>
  JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        noEmit: true,
        // @types/node from the repository, so the check needs no network.
        typeRoots: [TYPE_ROOTS],
        types: ['node'],
      },
      files: [file],
    },
    null,
    2,
  );

/** The user's program as a child process: its output kept, its ready line awaited. */
interface UserProcess {
  readonly child: ChildProcess;
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

function startUserProcess(cwd: string, env: Record<string, string>): UserProcess {
  const child = spawn(process.execPath, ['main.mjs'], {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => lines.push(line));
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, lines, exited, output: () => `--- main.mjs output ---\n${lines.join('\n')}` };
}

/** Rethrows with the user program's output, so a failure says what the program printed. */
async function withOutput<T>(user: UserProcess, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${user.output()}`);
  }
}

describe('the packages as published: npm pack, offline install, plain node and strict TypeScript', () => {
  let packDir: string;
  let scratch: string;
  let stackStart: Promise<E2eStack>;
  let e: E2eStack | undefined;
  let protocolPack: PackResult;
  let executorPack: PackResult;
  let user: UserProcess | undefined;

  beforeAll(async () => {
    // The stack starts while npm packs and installs.
    stackStart = startE2eStack('pack');
    stackStart.catch(() => undefined);
    packDir = await mkdtemp(join(tmpdir(), 'tickring-pack-'));
    scratch = await mkdtemp(join(tmpdir(), 'tickring-user-'));
    protocolPack = await pack(PACKAGES.protocol, packDir);
    executorPack = await pack(PACKAGES.executor, packDir);

    await writeFile(
      join(scratch, 'package.json'),
      JSON.stringify({ name: 'tickring-user', version: '1.0.0', private: true, type: 'module' }, null, 2),
    );
    const install = await run(
      'npm',
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        join(packDir, executorPack.filename),
        join(packDir, protocolPack.filename),
      ],
      scratch,
      90_000,
    );
    if (install.code !== 0) throw new Error(shown('npm install of the tarballs (offline)', install));
    e = await stackStart;
  });

  afterAll(async () => {
    if (user && user.child.exitCode === null && user.child.signalCode === null) {
      user.child.kill('SIGKILL');
      await user.exited;
    }
    await (e ?? (await stackStart.catch(() => undefined)))?.stop();
    await Promise.all(
      [packDir, scratch].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })),
    );
  });

  it('packs only package.json, README.md, LICENSE and the compiled dist/**/*.js + *.d.ts', () => {
    for (const packed of [protocolPack, executorPack]) {
      const paths = packed.files.map((f) => f.path);
      expect(unexpectedFiles(paths), `${packed.name}: files that must not be published`).toEqual([]);
      for (const required of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.d.ts']) {
        expect(paths, `${packed.name} must contain ${required}`).toContain(required);
      }
      // Every module comes with its declarations, and the other way round.
      const js = paths.filter((p) => p.endsWith('.js')).map((p) => p.slice(0, -'.js'.length));
      const dts = paths.filter((p) => p.endsWith('.d.ts')).map((p) => p.slice(0, -'.d.ts'.length));
      expect(dts.sort(), `${packed.name}: a .d.ts for every .js`).toEqual(js.sort());
    }
    expect(protocolPack).toMatchObject({
      name: '@tickring/protocol',
      filename: `tickring-protocol-${protocolPack.version}.tgz`,
    });
    expect(executorPack).toMatchObject({
      name: '@tickring/executor',
      filename: `tickring-executor-${executorPack.version}.tgz`,
    });
    const executorPaths = executorPack.files.map((f) => f.path);
    for (const module of ['executor', 'lambda-executor', 'built-in-handlers', 'job-context']) {
      expect(executorPaths, `the executor tarball's dist/${module}.js`).toContain(`dist/${module}.js`);
    }
  });

  it('installs offline from the two tarballs, the executor depending on the protocol version packed beside it', async () => {
    const installed = async (name: string) =>
      JSON.parse(await readFile(join(scratch, 'node_modules', '@tickring', name, 'package.json'), 'utf8'));
    const protocol = await installed('protocol');
    const executor = await installed('executor');
    expect(protocol.version).toBe(protocolPack.version);
    expect(executor.dependencies).toEqual({ '@tickring/protocol': protocol.version });
    expect(executor.devDependencies, 'no devDependencies reach the user').toBeUndefined();
    for (const manifest of [protocol, executor]) {
      expect(manifest, manifest.name).toMatchObject({
        license: 'Apache-2.0',
        type: 'module',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
      });
    }
    // Nothing else came along (the SDK has no other dependency).
    expect((await readdir(join(scratch, 'node_modules'))).filter((n) => !n.startsWith('.'))).toEqual([
      '@tickring',
    ]);
    expect(existsSync(join(scratch, 'node_modules', '@tickring', 'executor', 'LICENSE'))).toBe(true);
  });

  it('runs a job for a local tickring stack from a plain node ESM program importing @tickring/executor', async () => {
    const stack = e as E2eStack;
    const appName = await stack.createAutoGroup('pack');
    const logDir = join(scratch, 'executor-logs');
    await writeFile(join(scratch, 'main.mjs'), MAIN_MJS);
    const started = startUserProcess(scratch, {
      TICKRING_APP_NAME: appName,
      TICKRING_ADMIN_ADDRESSES: stack.stack.urls.api,
      TICKRING_ACCESS_TOKEN: stack.stack.tokens.accessToken,
      EXECUTOR_LOG_DIR: logDir,
    });
    user = started;

    const ready = await withOutput(
      started,
      waitFor(
        async () => {
          if (started.child.exitCode !== null || started.child.signalCode !== null) {
            throw new Error(
              `main.mjs exited (${started.child.exitCode ?? started.child.signalCode}) before it was ready`,
            );
          }
          const line = started.lines.find((l) => l.startsWith('{"ready":'));
          return line ? (JSON.parse(line) as { address: string; sdk: string }) : undefined;
        },
        { what: 'the ready line of main.mjs', timeoutMs: 20_000, intervalMs: 50 },
      ),
    );
    // The SDK came from the scratch project's node_modules, not from the repository.
    expect(fileURLToPath(ready.sdk).startsWith(join(scratch, 'node_modules', '@tickring', 'executor'))).toBe(
      true,
    );
    await withOutput(started, stack.waitForExecutor(appName, ready.address));

    const job = await stack.createJob({ appName, executorHandler: HANDLER, executorParam: 'job-param' });
    const fire = await stack.trigger(job.id, { executorParam: 'from-the-trigger' });
    // biome-ignore lint/suspicious/noExplicitAny: a run view, read field by field
    const runView: any = await withOutput(
      started,
      waitFor(
        async () => {
          const reply = await stack.call('GET', `/v1/logs?jobId=${job.id}`);
          if (reply.status !== 200) throw new Error(`GET /v1/logs?jobId=${job.id}: ${JSON.stringify(reply)}`);
          const found = reply.body.items.find((r: { dedupKey: string }) => r.dedupKey === fire.dedupKey);
          return found && found.status !== 'running' ? found : undefined;
        },
        { what: `the finished run of job ${job.id} (GET /v1/logs)`, timeoutMs: 30_000, intervalMs: 200 },
      ),
    );
    expect(runView, `the run as the API shows it\n${started.output()}`).toMatchObject({
      status: 'success',
      triggerCode: 200,
      handleCode: 200,
      handleMsg: 'packed and installed: from-the-trigger',
      executorAddress: ready.address,
      executorHandler: HANDLER,
    });

    // The run's log: written by the installed SDK under {logDir}/yyyy-MM-dd/{logId}.log, read back through the API.
    const output = await stack.call('GET', `/v1/logs/${runView.logId}/output?fromLineNum=1`);
    expect(output.status, JSON.stringify(output.body)).toBe(200);
    expect(output.body.logContent).toContain(`hello from the tarball, job ${job.id}, param=from-the-trigger`);
    const days = (await readdir(logDir)).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d));
    expect(
      days.some((day) => existsSync(join(logDir, day, `${runView.logId}.log`))),
      `${logDir}/yyyy-MM-dd/${runView.logId}.log`,
    ).toBe(true);

    // SIGTERM: the program stops the executor (which deregisters) and exits 0.
    started.child.kill('SIGTERM');
    const exit = await withOutput(
      started,
      Promise.race([
        started.exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('main.mjs did not exit within 15 s of SIGTERM')), 15_000),
        ),
      ]),
    );
    expect(exit, started.output()).toEqual({ code: 0, signal: null });
    expect(started.lines, started.output()).toContain('stopped');
    await withOutput(started, stack.waitForExecutor(appName, ready.address, false, 10_000));
  });

  it('type-checks a user file under strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, NodeNext, no skipLibCheck', async () => {
    await writeFile(join(scratch, 'user.ts'), USER_TS);
    await writeFile(join(scratch, 'tsconfig.json'), tsconfig('user.ts'));
    await writeFile(join(scratch, 'bad.ts'), BAD_TS);
    await writeFile(join(scratch, 'tsconfig.bad.json'), tsconfig('bad.ts'));
    const [good, bad] = await Promise.all([
      run(process.execPath, [TSC, '-p', 'tsconfig.json'], scratch),
      run(process.execPath, [TSC, '-p', 'tsconfig.bad.json'], scratch),
    ]);
    expect(good.code, shown('tsc -p tsconfig.json (user.ts)', good)).toBe(0);
    // The check is not vacuous: a number as appName is refused, at that line.
    expect(bad.code, shown('tsc -p tsconfig.bad.json (bad.ts, which must fail)', bad)).not.toBe(0);
    expect(bad.stdout, shown('tsc on bad.ts', bad)).toMatch(
      /bad\.ts\(4,3\): error TS2322: Type 'number' is not assignable to type 'string'/,
    );
    expect(bad.stdout.match(/error TS/g), shown('tsc on bad.ts: exactly one error', bad)).toHaveLength(1);
  });
});
