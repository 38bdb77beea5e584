import { setTimeout as sleep } from 'node:timers/promises';
import type { JobContext, JobHandler } from '@tickring/executor';

/** Lines the streaming handler writes, one every {@link LINE_EVERY_MS}: a run of about 6 s. */
export const STREAM_LINES = 20;
export const LINE_EVERY_MS = 300;
/** How long a workflow node's job works. */
export const NODE_MS = 400;

/** What the handlers saw: which runs started, and which were aborted (killed) while running. */
export interface HandlerRecord {
  readonly started: Map<number, string>;
  readonly aborted: Map<number, string>;
}

/**
 * The executor's handlers for the console test:
 * - `tick`: the cron job's, quick (a line, then success);
 * - `stream`: a line every 300 ms for 6 s, then success (the live log grows while it runs);
 * - `forever`: a line every 300 ms until killed (its signal aborts), never returns by itself;
 * - `node`: a workflow node's job: a line with its parameter, {@link NODE_MS} of work (its RUNNING
 *   state shows), then a JSON result naming its parameter.
 */
export function consoleHandlers(): { handlers: Record<string, JobHandler>; record: HandlerRecord } {
  const record: HandlerRecord = { started: new Map(), aborted: new Map() };
  const tick: JobHandler = (ctx: JobContext) => {
    record.started.set(ctx.logId, 'tick');
    ctx.log('tick at %s', new Date().toISOString());
    return 'ticked';
  };
  const stream: JobHandler = async (ctx: JobContext) => {
    record.started.set(ctx.logId, 'stream');
    for (let i = 1; i <= STREAM_LINES; i++) {
      ctx.log('stream line %d of %d', i, STREAM_LINES);
      await sleep(LINE_EVERY_MS, undefined, { signal: ctx.signal });
    }
    return `streamed ${STREAM_LINES} lines`;
  };
  const forever: JobHandler = async (ctx: JobContext) => {
    record.started.set(ctx.logId, 'forever');
    try {
      for (let i = 1; ; i++) {
        ctx.log('still working: line %d', i);
        await sleep(LINE_EVERY_MS, undefined, { signal: ctx.signal });
      }
    } catch (err) {
      if (ctx.signal.aborted) record.aborted.set(ctx.logId, String(ctx.signal.reason));
      throw err;
    }
  };
  const node: JobHandler = async (ctx: JobContext) => {
    record.started.set(ctx.logId, 'node');
    ctx.log('workflow node got %s', ctx.param);
    await sleep(NODE_MS, undefined, { signal: ctx.signal });
    return { param: ctx.param };
  };
  return { handlers: { tick, stream, forever, node }, record };
}
