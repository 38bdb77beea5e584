/**
 * What both imports (`import xxl-job`, `import tickring`) do alike while they send: stop sending once
 * the server cannot be reached, and show their progress on stderr.
 */
import { TickringConnectionError } from '@tickring/client';
import type { Context } from '../context.js';

/**
 * Sends calls until one finds the server unreachable; the later ones then fail at once with that
 * reason, instead of each waiting for its own connection error.
 */
export function untilUnreachable(): <T>(call: () => Promise<T>) => Promise<T> {
  let unreachable: string | undefined;
  return async (call) => {
    if (unreachable !== undefined) throw new Error(`not sent: ${unreachable}`);
    try {
      return await call();
    } catch (err) {
      if (err instanceof TickringConnectionError) unreachable = err.message;
      throw err;
    }
  };
}

/** Progress on stderr: a line rewritten in place on a terminal, a line per tenth of a long phase elsewhere. */
export function progressPrinter(ctx: Context): {
  onProgress: (p: { readonly phase: string; readonly done: number; readonly total: number }) => void;
  done: () => void;
} {
  const { stderr } = ctx.io;
  const tty = stderr.isTTY === true;
  let shown = false;
  return {
    onProgress(p) {
      const text = `importing ${p.phase}: ${p.done}/${p.total}`;
      if (tty) {
        stderr.write(`\r\x1b[K${text}`);
        shown = true;
      } else if (p.total >= 50 && (p.done === p.total || p.done % Math.ceil(p.total / 10) === 0)) {
        stderr.write(`${text}\n`);
      }
    },
    done() {
      if (shown) stderr.write('\r\x1b[K');
    },
  };
}
