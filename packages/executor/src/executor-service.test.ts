import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HandleCallbackParam, TriggerParam } from '@tickring/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gate, waitFor } from '../test-support/wait-for.js';
import { ExecutorService } from './executor-service.js';
import type { JobContext } from './job-context.js';

let logDir: string;
let callbacks: HandleCallbackParam[];
let service: ExecutorService;
let nextLogId = 1;

function makeService(extra: Partial<ConstructorParameters<typeof ExecutorService>[0]> = {}) {
  return new ExecutorService({
    logDir,
    enableGlue: false,
    abortGraceMs: 300,
    idleTimeoutMs: 60_000,
    onCallback: (p) => callbacks.push(p),
    onError: () => {},
    ...extra,
  });
}

function trigger(overrides: Partial<TriggerParam> = {}): TriggerParam {
  return {
    jobId: 1,
    executorHandler: 'job',
    executorParams: '',
    executorBlockStrategy: 'SERIAL_EXECUTION',
    executorTimeout: 0,
    logId: nextLogId++,
    logDateTime: Date.now(),
    glueType: 'BEAN',
    glueSource: '',
    glueUpdatetime: 0,
    broadcastIndex: 0,
    broadcastTotal: 1,
    ...overrides,
  };
}

const callbackOf = (logId: number) =>
  waitFor(() => callbacks.find((c) => c.logId === logId), { message: `callback ${logId}` });

/** A handler that runs until the test opens its gate or its signal aborts; records start/end order. */
function controllable() {
  const events: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  let active = 0;
  let maxActive = 0;
  const handler = async (ctx: JobContext) => {
    active++;
    maxActive = Math.max(maxActive, active);
    events.push(`start:${ctx.param}`);
    const g = gate();
    gates.set(ctx.param, g);
    try {
      await new Promise<void>((resolve, reject) => {
        g.promise.then(resolve);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      });
      events.push(`end:${ctx.param}`);
      return `done ${ctx.param}`;
    } finally {
      active--;
    }
  };
  const release = async (param: string) =>
    (await waitFor(() => gates.get(param), { message: `run ${param}` })).open();
  return { handler, events, release, maxActive: () => maxActive };
}

beforeEach(async () => {
  logDir = await mkdtemp(join(tmpdir(), 'tickring-service-'));
  callbacks = [];
});

afterEach(async () => {
  await service?.shutdown(10);
  await rm(logDir, { recursive: true, force: true });
});

describe('block strategy SERIAL_EXECUTION', () => {
  it('queues triggers of a busy job and runs them one at a time in arrival order', async () => {
    service = makeService();
    const h = controllable();
    service.register('job', { handler: h.handler });
    const ids = ['a', 'b', 'c'].map((p) => {
      const t = trigger({ executorParams: p });
      expect(service.run(t)).toEqual({ code: 200 });
      return t.logId;
    });
    await h.release('a');
    await h.release('b');
    await h.release('c');
    for (const id of ids) expect((await callbackOf(id)).handleCode).toBe(200);
    expect(h.events).toEqual(['start:a', 'end:a', 'start:b', 'end:b', 'start:c', 'end:c']);
    expect(h.maxActive()).toBe(1);
  });
});

describe('block strategy DISCARD_LATER', () => {
  it('refuses a trigger while the job runs and accepts one once it is idle', async () => {
    service = makeService();
    const h = controllable();
    service.register('job', { handler: h.handler });
    const first = trigger({ executorParams: 'a', executorBlockStrategy: 'DISCARD_LATER' });
    expect(service.run(first).code).toBe(200);
    const discarded = trigger({ executorParams: 'b', executorBlockStrategy: 'DISCARD_LATER' });
    expect(service.run(discarded)).toEqual({ code: 500, msg: 'block strategy effect：Discard Later' });
    await h.release('a');
    await callbackOf(first.logId);
    await waitFor(() => service.idleBeat(1).code === 200);
    const later = trigger({ executorParams: 'c', executorBlockStrategy: 'DISCARD_LATER' });
    expect(service.run(later).code).toBe(200);
    await h.release('c');
    expect((await callbackOf(later.logId)).handleCode).toBe(200);
    expect(callbacks.find((c) => c.logId === discarded.logId)).toBeUndefined();
    expect(h.events).toEqual(['start:a', 'end:a', 'start:c', 'end:c']);
  });

  it('refuses while triggers are queued even if the running one is about to end', async () => {
    service = makeService();
    const h = controllable();
    service.register('job', { handler: h.handler });
    service.run(trigger({ executorParams: 'a' }));
    service.run(trigger({ executorParams: 'b' }));
    expect(service.run(trigger({ executorParams: 'x', executorBlockStrategy: 'DISCARD_LATER' })).code).toBe(
      500,
    );
    await h.release('a');
    await h.release('b');
  });
});

describe('block strategy COVER_EARLY', () => {
  it('aborts the running trigger, fails the queued ones and runs the new one after the old one stopped', async () => {
    service = makeService();
    const h = controllable();
    const destroyed: string[] = [];
    service.register('job', { handler: h.handler, destroy: () => destroyed.push('destroy') });
    const running = trigger({ executorParams: 'a' });
    const queued = trigger({ executorParams: 'b' });
    service.run(running);
    service.run(queued);
    await waitFor(() => h.events.includes('start:a'));
    const cover = trigger({ executorParams: 'c', executorBlockStrategy: 'COVER_EARLY' });
    expect(service.run(cover)).toEqual({ code: 200 });

    expect(await callbackOf(running.logId)).toMatchObject({
      handleCode: 500,
      handleMsg: 'block strategy effect：Cover Early [job running, killed]',
    });
    expect(await callbackOf(queued.logId)).toMatchObject({
      handleCode: 500,
      handleMsg: 'block strategy effect：Cover Early [job not executed, in the job queue, killed.]',
    });
    await h.release('c');
    expect(await callbackOf(cover.logId)).toMatchObject({ handleCode: 200, handleMsg: 'done c' });
    expect(h.events).toEqual(['start:a', 'start:c', 'end:c']);
    expect(h.maxActive()).toBe(1);
    expect(destroyed).toEqual(['destroy']);
  });

  it('just runs the trigger when the job is idle', async () => {
    service = makeService();
    service.register('job', { handler: () => 'fine' });
    const t = trigger({ executorBlockStrategy: 'COVER_EARLY' });
    expect(service.run(t).code).toBe(200);
    expect(await callbackOf(t.logId)).toMatchObject({ handleCode: 200, handleMsg: 'fine' });
  });
});

describe('ExecutorService.run', () => {
  it('refuses a logId it already has, and runs it once', async () => {
    service = makeService();
    let runs = 0;
    service.register('job', {
      handler: () => {
        runs++;
      },
    });
    const t = trigger();
    expect(service.run(t).code).toBe(200);
    expect(service.run({ ...t })).toEqual({ code: 500, msg: `repeate trigger job, logId:${t.logId}` });
    await callbackOf(t.logId);
    expect(service.run({ ...t }).code).toBe(500);
    await waitFor(() => service.idleBeat(1).code === 200);
    expect(runs).toBe(1);
    expect(callbacks.filter((c) => c.logId === t.logId)).toHaveLength(1);
  });

  it('answers "job handler [x] not found." for an unknown BEAN handler', () => {
    service = makeService();
    expect(service.run(trigger({ executorHandler: 'nope' }))).toEqual({
      code: 500,
      msg: 'job handler [nope] not found.',
    });
  });

  it('refuses every GLUE type when GLUE is disabled', () => {
    service = makeService();
    for (const glueType of ['GLUE_SHELL', 'GLUE_NODEJS', 'GLUE_PYTHON', 'GLUE_GROOVY']) {
      const r = service.run(trigger({ glueType, glueSource: 'echo hi' }));
      expect(r.code).toBe(500);
      expect(r.msg).toContain(`glueType[${glueType}] refused: GLUE is disabled`);
    }
    expect(callbacks).toEqual([]);
  });

  it('answers GLUE_GROOVY with "not supported" when GLUE is enabled, and an unknown type as not valid', () => {
    service = makeService({ enableGlue: true });
    expect(service.run(trigger({ glueType: 'GLUE_GROOVY', glueSource: 'class X {}' })).msg).toMatch(
      /^glueType\[GLUE_GROOVY\] is not supported/,
    );
    expect(service.run(trigger({ glueType: 'GLUE_COBOL' }))).toEqual({
      code: 500,
      msg: 'glueType[GLUE_COBOL] is not valid.',
    });
  });

  it('runs init once before the first execution and destroy when the worker idles out', async () => {
    service = makeService({ idleTimeoutMs: 100 });
    const calls: string[] = [];
    service.register('job', {
      handler: (ctx) => {
        calls.push(`run:${ctx.logId}`);
      },
      init: () => calls.push('init'),
      destroy: () => calls.push('destroy'),
    });
    const a = trigger();
    const b = trigger();
    service.run(a);
    service.run(b);
    await callbackOf(b.logId);
    await waitFor(() => calls.includes('destroy'), { message: 'idle destroy' });
    expect(calls).toEqual(['init', `run:${a.logId}`, `run:${b.logId}`, 'destroy']);
    const c = trigger();
    service.run(c);
    await callbackOf(c.logId);
    expect(calls.slice(4)).toEqual(['init', `run:${c.logId}`]);
  });

  it('fails the run with the init error when init throws, and tries init again next time', async () => {
    service = makeService();
    let attempts = 0;
    service.register('job', {
      handler: () => 'ran',
      init: () => {
        attempts++;
        if (attempts === 1) throw new Error('no connection');
      },
    });
    const a = trigger();
    service.run(a);
    expect((await callbackOf(a.logId)).handleMsg).toContain('job handler init failed: Error: no connection');
    const b = trigger();
    service.run(b);
    expect(await callbackOf(b.logId)).toMatchObject({ handleCode: 200, handleMsg: 'ran' });
  });

  it('replaces the worker when the same job gets a different handler', async () => {
    service = makeService();
    const h = controllable();
    const destroyed: string[] = [];
    service.register('job', { handler: h.handler, destroy: () => destroyed.push('job') });
    service.register('other', { handler: () => 'other ran' });
    const a = trigger({ executorParams: 'a' });
    service.run(a);
    await waitFor(() => h.events.includes('start:a'));
    const b = trigger({ executorHandler: 'other' });
    expect(service.run(b).code).toBe(200);
    expect((await callbackOf(a.logId)).handleMsg).toBe(
      'change jobhandler or glue type, and terminate the old job thread. [job running, killed]',
    );
    expect(await callbackOf(b.logId)).toMatchObject({ handleCode: 200, handleMsg: 'other ran' });
    expect(destroyed).toEqual(['job']);
  });
});

describe('ExecutorService.kill and idleBeat', () => {
  it('kills the running trigger, fails the queue, and reports an absent worker as already killed', async () => {
    service = makeService();
    const h = controllable();
    service.register('job', { handler: h.handler });
    const a = trigger({ executorParams: 'a' });
    const b = trigger({ executorParams: 'b' });
    service.run(a);
    service.run(b);
    await waitFor(() => h.events.includes('start:a'));
    expect(service.idleBeat(1)).toEqual({ code: 500, msg: 'job thread is running or has trigger queue.' });
    expect(service.kill(1)).toEqual({ code: 200 });
    expect(await callbackOf(a.logId)).toMatchObject({
      handleCode: 500,
      handleMsg: 'scheduling center kill job. [job running, killed]',
    });
    expect(await callbackOf(b.logId)).toMatchObject({
      handleCode: 500,
      handleMsg: 'scheduling center kill job. [job not executed, in the job queue, killed.]',
    });
    expect(service.kill(1)).toEqual({ code: 200, msg: 'job thread already killed.' });
    expect(service.idleBeat(1)).toEqual({ code: 200 });
    expect(h.events).toEqual(['start:a']);
  });
});

describe('ExecutorService.shutdown', () => {
  it('lets a run that ends within the grace period finish and refuses new triggers', async () => {
    service = makeService();
    const h = controllable();
    service.register('job', { handler: h.handler });
    const a = trigger({ executorParams: 'a' });
    service.run(a);
    await waitFor(() => h.events.includes('start:a'));
    const stopping = service.shutdown(5_000);
    expect(service.run(trigger()).msg).toBe('executor is shutting down, trigger refused.');
    await h.release('a');
    await stopping;
    expect(await callbackOf(a.logId)).toMatchObject({ handleCode: 200 });
  });

  it('aborts a run still going when the grace period ends', async () => {
    service = makeService();
    const h = controllable();
    service.register('job', { handler: h.handler });
    const a = trigger({ executorParams: 'a' });
    service.run(a);
    await waitFor(() => h.events.includes('start:a'));
    await service.shutdown(50);
    expect((await callbackOf(a.logId)).handleMsg).toMatch(/\[job running, killed\]$/);
  });
});
