import { describe, expect, it } from 'vitest';
import { DEFAULT_DATA_DIR, parseServerArgs, ServerUsageError } from './server-args.js';

const problemsOf = (argv: string[], env = {}): readonly string[] => {
  try {
    parseServerArgs(argv, env, '/work');
  } catch (err) {
    if (err instanceof ServerUsageError) return err.problems;
    throw err;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
};

describe('parseServerArgs', () => {
  it('runs the server on loopback, port 8080, in /var/lib/tickring unless told otherwise', () => {
    expect(parseServerArgs([], {}, '/work')).toEqual({
      kind: 'serve',
      dataDir: DEFAULT_DATA_DIR,
      host: '127.0.0.1',
      port: 8080,
      verbose: false,
    });
  });

  it('takes the data directory, host and port from the options, then the environment; relative to the working directory', () => {
    expect(
      parseServerArgs(['--data-dir', 'data', '--host', '::', '--port', '0', '--verbose'], {}, '/work'),
    ).toEqual({
      kind: 'serve',
      dataDir: '/work/data',
      host: '::',
      port: 0,
      verbose: true,
    });
    expect(parseServerArgs([], { TICKRING_DATA_DIR: '/srv/tr', PORT: '9000' }, '/work')).toMatchObject({
      dataDir: '/srv/tr',
      port: 9000,
    });
  });

  it('reads backup and restore with their FILE', () => {
    expect(parseServerArgs(['backup', 'b.db', '--data-dir', '/d'], {}, '/work')).toEqual({
      kind: 'backup',
      file: '/work/b.db',
      dataDir: '/d',
    });
    expect(parseServerArgs(['restore', '/b.db'], {}, '/work')).toEqual({
      kind: 'restore',
      file: '/b.db',
      dataDir: DEFAULT_DATA_DIR,
    });
  });

  it('names every problem at once', () => {
    expect(problemsOf(['--host', 'localhost', '--port', '70000', 'start'])).toEqual([
      'unknown command "start": use backup FILE, restore FILE, or no command to run the server',
      '--host must be an IP address to listen on (127.0.0.1, ::1, 0.0.0.0 for every interface), got "localhost"',
      '--port must be a port number (0-65535), got "70000"',
    ]);
    expect(problemsOf(['backup', '--port', '1', '--data-dir', ''])).toEqual([
      '--data-dir must name a directory, got an empty value',
      "--port is the server's option, not backup's",
      'backup needs a FILE: npm run server -- backup FILE [--data-dir DIR]',
    ]);
    expect(problemsOf(['restore', 'a.db', 'b.db'])).toEqual(['restore takes one FILE, got 2: a.db b.db']);
    expect(problemsOf([], { PORT: '-1' })).toEqual(['--port must be a port number (0-65535), got "-1"']);
  });

  it('refuses an unknown option or one without its value', () => {
    expect(problemsOf(['--dat-dir', 'x'])).toEqual([expect.stringContaining("'--dat-dir'")]);
    expect(problemsOf(['--port'])).toEqual([expect.stringContaining("'--port")]);
  });

  it('answers --help with help', () => {
    expect(parseServerArgs(['backup', '--help'], {}, '/work')).toEqual({ kind: 'help' });
  });
});
