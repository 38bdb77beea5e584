/**
 * Questions on the terminal (asked on stderr, so stdout stays the command's result): a line, a
 * secret without echo, a yes/no; and reading all of a piped stdin.
 */
import { InterruptedError } from './errors.js';
import type { Io } from './io.js';

/** Whether questions can be asked: stdin is a terminal. */
export function canAsk(io: Io): boolean {
  return io.stdin.isTTY === true;
}

/** One line typed by the user (echoed by the terminal as usual), without its newline. */
export function askLine(io: Io, question: string): Promise<string> {
  io.stderr.write(question);
  return readKeys(io, { echo: true });
}

/** A secret typed without echo (raw mode); backspace works, Ctrl-C stops the command. */
export async function askSecret(io: Io, question: string): Promise<string> {
  io.stderr.write(question);
  const value = await readKeys(io, { echo: false });
  io.stderr.write('\n');
  return value;
}

/** y/yes → true; anything else (Enter included) → false. */
export async function confirm(io: Io, question: string): Promise<boolean> {
  const answer = await askLine(io, `${question} [y/N] `);
  return /^y(es)?$/i.test(answer.trim());
}

function readKeys(io: Io, { echo }: { echo: boolean }): Promise<string> {
  const { stdin } = io;
  return new Promise<string>((resolve, reject) => {
    let value = '';
    const raw = !echo && typeof stdin.setRawMode === 'function';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      if (raw) stdin.setRawMode?.(false);
      stdin.pause();
      if (error) reject(error);
      else resolve(value);
    };
    const onEnd = () => finish();
    const onData = (chunk: string | Buffer) => {
      for (const ch of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
        if (ch === '\u0003') {
          if (raw) io.stderr.write('\n');
          return finish(new InterruptedError());
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    if (raw) stdin.setRawMode?.(true);
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}

/** All of stdin (piped), as text. */
export async function readAll(io: Io): Promise<string> {
  const chunks: string[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  return chunks.join('');
}
