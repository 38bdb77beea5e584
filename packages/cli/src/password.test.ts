import { describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { askNewPassword, readNewPassword, readPassword, stdinLines } from './password.js';
import { type FakeIo, fakeIo, fakeStdin } from './test-support/fake-io.js';

/** Types `line` once `question` has been asked (the prompt reads one line at a time). */
async function typeAfter(io: FakeIo, question: string, line: string, times = 1): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (io.stderr.text.split(question).length - 1 >= times) {
      io.stdin.write(`${line}\r`);
      return;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`"${question}" was not asked (stderr: ${io.stderr.text})`);
}

describe('readPassword', () => {
  it('asks without echo on a terminal (raw mode, nothing echoed, spaces kept)', async () => {
    const io = fakeIo({ stdin: fakeStdin({ isTTY: true }) });
    const answer = readPassword(io, { fromStdin: false, question: 'Password of ana: ' });
    await typeAfter(io, 'Password of ana: ', ' correct horse ');
    expect(await answer).toBe(' correct horse ');
    expect(io.stderr.text).toBe('Password of ana: \n');
    expect(io.stdout.text).toBe('');
    expect(io.stdin.rawModeChanges).toEqual([true, false]);
  });

  it("reads stdin's first line with --password-stdin (its CR LF removed, the rest ignored)", async () => {
    const io = fakeIo({ stdin: fakeStdin({ piped: 'pass word 1\r\nignored\n' }) });
    expect(await readPassword(io, { fromStdin: true, question: 'x' })).toBe('pass word 1');
  });

  it('without a terminal says to pipe it in; an empty one is refused', async () => {
    await expect(readPassword(fakeIo(), { fromStdin: false, question: 'x' })).rejects.toThrow(
      'no terminal to ask for the password: pipe it in with --password-stdin',
    );
    await expect(
      readPassword(fakeIo({ stdin: fakeStdin({ piped: '\n' }) }), { fromStdin: true, question: 'x' }),
    ).rejects.toThrow('--password-stdin: stdin holds no password (one line)');
    const io = fakeIo({ stdin: fakeStdin({ isTTY: true }) });
    const answer = readPassword(io, { fromStdin: false, question: 'P: ' });
    await typeAfter(io, 'P: ', '');
    await expect(answer).rejects.toThrow(UsageError);
  });
});

describe('askNewPassword / readNewPassword', () => {
  it('asks twice without echo and takes it when both agree', async () => {
    const io = fakeIo({ stdin: fakeStdin({ isTTY: true }) });
    const answer = askNewPassword(io, 'New password: ');
    await typeAfter(io, 'New password: ', 'a long new passphrase');
    await typeAfter(io, 'The same again: ', 'a long new passphrase');
    expect(await answer).toBe('a long new passphrase');
    expect(io.stderr.text).toBe('New password: \nThe same again: \n');
    expect(io.stdin.rawModeChanges).toEqual([true, false, true, false]);
  });

  it('refuses two different ones (exit 2), saying nothing of either', async () => {
    const io = fakeIo({ stdin: fakeStdin({ isTTY: true }) });
    const answer = readNewPassword(io, { fromStdin: false, question: 'Password for ana: ' });
    await typeAfter(io, 'Password for ana: ', 'first passphrase');
    await typeAfter(io, 'The same again: ', 'other passphrase');
    await expect(answer).rejects.toThrow(
      new UsageError('the two passwords typed differ; nothing was changed'),
    );
    expect(io.stderr.text).not.toContain('passphrase');
  });

  it('reads it from stdin once with --password-stdin', async () => {
    const io = fakeIo({ stdin: fakeStdin({ piped: 'from a pipe\n' }) });
    expect(await readNewPassword(io, { fromStdin: true, question: 'x' })).toBe('from a pipe');
    expect(io.stderr.text).toBe('');
  });
});

describe('stdinLines', () => {
  it('reads one value a line and names a missing one', async () => {
    const io = fakeIo({ stdin: fakeStdin({ piped: 'old one\nnew one\n' }) });
    expect(await stdinLines(io, ['the current password', 'the new password'])).toEqual([
      'old one',
      'new one',
    ]);
    await expect(
      stdinLines(fakeIo({ stdin: fakeStdin({ piped: 'old one\n' }) }), [
        'the current password',
        'the new password',
      ]),
    ).rejects.toThrow(
      '--password-stdin: line 2 of stdin should be the new password (the current password, then the new password, one a line)',
    );
  });
});
