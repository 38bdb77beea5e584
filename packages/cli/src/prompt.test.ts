import { describe, expect, it } from 'vitest';
import { InterruptedError } from './errors.js';
import { askSecret, confirm, readAll } from './prompt.js';
import { fakeIo, fakeStdin } from './test-support/fake-io.js';

describe('askSecret', () => {
  it('reads a line in raw mode without echoing it; backspace works; raw mode is left after', async () => {
    const stdin = fakeStdin({ isTTY: true });
    const io = fakeIo({ stdin });
    const answer = askSecret(io, 'Token: ');
    stdin.write('s3cr');
    stdin.write('x\u007fet\r');
    expect(await answer).toBe('s3cret');
    expect(io.stderr.text).toBe('Token: \n');
    expect(io.stdout.text).toBe('');
    expect(stdin.rawModeChanges).toEqual([true, false]);
  });

  it('stops on Ctrl-C', async () => {
    const stdin = fakeStdin({ isTTY: true });
    const answer = askSecret(fakeIo({ stdin }), 'Token: ');
    stdin.write('ab\u0003');
    await expect(answer).rejects.toThrow(InterruptedError);
    expect(stdin.rawMode).toBe(false);
  });
});

describe('confirm', () => {
  it.each([
    ['y\n', true],
    ['YES\n', true],
    ['\n', false],
    ['no\n', false],
  ])('%j → %s', async (typed, expected) => {
    const stdin = fakeStdin({ isTTY: true });
    const io = fakeIo({ stdin });
    const answer = confirm(io, 'Delete job 7?');
    stdin.write(typed);
    expect(await answer).toBe(expected);
    expect(io.stderr.text).toBe('Delete job 7? [y/N] ');
  });
});

describe('readAll', () => {
  it('reads a piped stdin to its end', async () => {
    expect(await readAll(fakeIo({ stdin: fakeStdin({ piped: 'token\n' }) }))).toBe('token\n');
  });
});
