import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findInstallation,
  type Installation,
  registerServer,
  runServerEntry,
  type ServerLauncher,
} from './server.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickring-cli-server-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A directory laid out as a tickring checkout after `npm ci` (the parts the lookup reads). */
function fakeInstallation(root: string, name = 'tickring'): string {
  mkdirSync(join(root, 'local'), { recursive: true });
  writeFileSync(join(root, 'local', 'server.ts'), '');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name }));
  mkdirSync(join(root, 'node_modules', 'tsx', 'dist'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'tsx', 'package.json'),
    JSON.stringify({ name: 'tsx', exports: { '.': './dist/loader.mjs' } }),
  );
  writeFileSync(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs'), '');
  return root;
}

describe('findInstallation', () => {
  it('finds the checkout above the working directory, with its tsx as a file URL', () => {
    const root = fakeInstallation(join(dir, 'tickring'));
    const found = findInstallation({}, join(root, 'local'), join(dir, 'elsewhere'));
    expect(found).toEqual({
      root,
      entry: join(root, 'local', 'server.ts'),
      tsxLoader: `file://${join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')}`,
    });
  });

  it("else the one around the CLI's own files, else TICKRING_HOME's when set", () => {
    const root = fakeInstallation(join(dir, 'tickring'));
    expect(findInstallation({}, dir, join(root, 'packages', 'cli', 'dist'))).toMatchObject({ root });
    expect(findInstallation({ TICKRING_HOME: root }, '/', '/')).toMatchObject({ root });
    expect(findInstallation({ TICKRING_HOME: dir }, '/', '/')).toEqual({
      problem: `TICKRING_HOME=${dir} is not a tickring installation (no local/server.ts and node_modules/tsx there)`,
    });
  });

  it('says what it needs when there is none: another project, or a checkout before npm ci', () => {
    const other = fakeInstallation(join(dir, 'other'), 'not-tickring');
    const bare = join(dir, 'bare');
    mkdirSync(join(bare, 'local'), { recursive: true });
    writeFileSync(join(bare, 'local', 'server.ts'), '');
    writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'tickring' }));
    for (const cwd of [other, bare]) {
      const found = findInstallation({}, cwd, cwd);
      expect(found).toHaveProperty('problem', expect.stringContaining('needs a tickring installation'));
    }
  });
});

/** A launcher whose spawn runs `script` with node instead of the entry, recording what it was asked. */
function scriptLauncher(script: string) {
  const asked: { args: readonly string[]; cwd: string }[] = [];
  const signals: ((signal: NodeJS.Signals) => void)[] = [];
  let stderr = '';
  const launcher: ServerLauncher = {
    env: {},
    cwd: dir,
    stderr: { write: (s: string) => (stderr += s) },
    cliDir: dir,
    spawn: (_command, args, cwd) => {
      asked.push({ args, cwd });
      return spawn(process.execPath, ['-e', script], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    },
    onSignal: (forward) => {
      signals.push(forward);
      return () => signals.splice(signals.indexOf(forward), 1);
    },
  };
  return { launcher, asked, signals, stderr: () => stderr };
}

const installation: Installation = {
  root: '/opt/tickring',
  entry: '/opt/tickring/local/server.ts',
  tsxLoader: 'file:///tsx.mjs',
};

describe('runServerEntry', () => {
  it("runs the entry through the installation's tsx in the caller's directory and passes its exit code through", async () => {
    const { launcher, asked } = scriptLauncher('process.exit(3)');
    expect(await runServerEntry(installation, ['backup', 'b.db'], launcher)).toBe(3);
    expect(asked).toEqual([
      { args: ['--import', 'file:///tsx.mjs', '/opt/tickring/local/server.ts', 'backup', 'b.db'], cwd: dir },
    ]);
  });

  it('forwards SIGTERM to the server and stops listening for signals once it has exited', async () => {
    const { launcher, signals } = scriptLauncher(
      "process.on('SIGTERM', () => process.exit(0)); console.log('up'); setInterval(() => {}, 1000);",
    );
    const child = { started: false };
    const running = runServerEntry(installation, [], {
      ...launcher,
      spawn: (command, args, cwd) => {
        const process = launcher.spawn(command, args, cwd);
        process.stdout?.once('data', () => {
          child.started = true;
        });
        return process;
      },
    });
    while (!child.started) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signals).toHaveLength(1);
    signals[0]?.('SIGTERM');
    expect(await running).toBe(0);
    expect(signals).toHaveLength(0);
  });
});

describe('registerServer', () => {
  it('passes every argument through to the server entry, and names what is missing outside an installation', async () => {
    const exits: number[] = [];
    const { launcher, asked, stderr } = scriptLauncher('process.exit(0)');
    const program = new Command('tickring').exitOverride();
    let cwd = join(dir, 'outside');
    registerServer(
      program,
      (code) => exits.push(code),
      () => ({ ...launcher, cwd, cliDir: cwd }),
    );
    await program.parseAsync(['restore', 'b.db', '--data-dir', '/d'], { from: 'user' });
    expect(exits).toEqual([1]);
    expect(stderr()).toContain('tickring restore: this command runs the tickring scheduler itself');

    cwd = fakeInstallation(join(dir, 'tickring'));
    await program.parseAsync(['server', '--data-dir', '/d', '--port', '9000', '--verbose'], { from: 'user' });
    await program.parseAsync(['backup', 'b.db', '--data-dir', '/d'], { from: 'user' });
    expect(exits).toEqual([1, 0, 0]);
    expect(asked.map((a) => a.args.slice(2))).toEqual([
      [join(cwd, 'local', 'server.ts'), '--data-dir', '/d', '--port', '9000', '--verbose'],
      [join(cwd, 'local', 'server.ts'), 'backup', 'b.db', '--data-dir', '/d'],
    ]);
  });
});
