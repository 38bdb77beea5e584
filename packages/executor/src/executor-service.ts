import {
  FAIL_CODE,
  type GlueScriptType,
  type HandleCallbackParam,
  isGlueScriptType,
  type LogParam,
  type LogResult,
  MSG,
  type ReturnT,
  SUCCESS_CODE,
  type TriggerParam,
} from '@tickring/protocol';
import { createScriptHandler } from './glue.js';
import type { JobResult } from './job-context.js';
import { FileJobLog, type JobLogSink, logFilePath, readJobLog } from './job-log.js';
import { type HandlerRegistration, JobWorker } from './job-worker.js';
import { errorText } from './logger.js';

export interface ExecutorServiceOptions {
  logDir: string;
  enableGlue: boolean;
  abortGraceMs: number;
  idleTimeoutMs: number;
  glueInterpreters?: Partial<Record<GlueScriptType, string>> | undefined;
  /** Every result, exactly once per accepted trigger. */
  onCallback(param: HandleCallbackParam): void;
  onError(message: string, attributes: Record<string, unknown>): void;
  /** Sink of a run's log; defaults to `{logDir}/yyyy-MM-dd/{logId}.log`. */
  openLog?: ((trigger: TriggerParam) => JobLogSink) | undefined;
}

/** How many recent logIds are remembered to refuse a repeated trigger. */
const REMEMBERED_LOG_IDS = 10_000;

const ok = (msg?: string): ReturnT =>
  msg === undefined ? { code: SUCCESS_CODE } : { code: SUCCESS_CODE, msg };
const fail = (msg: string): ReturnT => ({ code: FAIL_CODE, msg });

/**
 * The executor's business (XXL-JOB's ExecutorBizImpl + JobThread repository), without HTTP: decides what
 * a trigger does (handler lookup, GLUE, block strategy, repeated logId), owns the job → worker map, and
 * answers beat / idleBeat / kill / log. `run` decides synchronously, so concurrent requests cannot race.
 */
export class ExecutorService {
  private readonly handlers = new Map<string, HandlerRegistration>();
  private readonly workers = new Map<number, JobWorker>();
  private readonly recentLogIds = new Set<number>();
  private closed = false;

  constructor(private readonly opts: ExecutorServiceOptions) {}

  register(name: string, registration: HandlerRegistration): void {
    if (!name.trim()) throw new TypeError('A job handler needs a non-empty name');
    if (this.handlers.has(name)) throw new TypeError(`A job handler named "${name}" is already registered`);
    if (typeof registration.handler !== 'function')
      throw new TypeError(`Job handler "${name}" is not a function`);
    this.handlers.set(name, registration);
  }

  handlerNames(): string[] {
    return [...this.handlers.keys()];
  }

  beat(): ReturnT {
    return ok();
  }

  idleBeat(jobId: number): ReturnT {
    return this.workers.get(jobId)?.busy ? fail(MSG.idleBeatBusy) : ok();
  }

  run(trigger: TriggerParam): ReturnT {
    if (this.closed) return fail('executor is shutting down, trigger refused.');
    if (this.recentLogIds.has(trigger.logId)) return fail(MSG.repeatTrigger(trigger.logId));

    const resolved = this.resolveHandler(trigger);
    if ('refused' in resolved) return fail(resolved.refused);

    let worker = this.workers.get(trigger.jobId);
    let replaceReason: string | undefined;
    if (worker && worker.key !== resolved.key) {
      replaceReason = MSG.changedHandler;
    } else if (worker?.busy) {
      if (trigger.executorBlockStrategy === 'DISCARD_LATER') return fail(MSG.discardLater);
      if (trigger.executorBlockStrategy === 'COVER_EARLY') replaceReason = MSG.coverEarly;
      // SERIAL_EXECUTION, and any unknown name (as XXL-JOB): just queue.
    }
    if (!worker || replaceReason !== undefined) {
      const previous = worker?.stop(replaceReason ?? MSG.changedHandler);
      worker = this.newWorker(trigger.jobId, resolved.key, resolved.registration, previous);
      this.workers.set(trigger.jobId, worker);
    }
    this.rememberLogId(trigger.logId);
    worker.push(trigger);
    return ok();
  }

  kill(jobId: number): ReturnT {
    const worker = this.workers.get(jobId);
    if (!worker) return ok(MSG.alreadyKilled);
    this.workers.delete(jobId);
    void worker.stop(MSG.killReason);
    return ok();
  }

  async log(param: LogParam): Promise<ReturnT<LogResult>> {
    const result = await readJobLog(
      logFilePath(this.opts.logDir, param.logDateTim, param.logId),
      param.fromLineNum,
    );
    return { code: SUCCESS_CODE, content: result, data: result };
  }

  /** True while any job is running or queued. */
  get busy(): boolean {
    return [...this.workers.values()].some((w) => w.busy);
  }

  /**
   * Refuses new triggers, lets running and queued ones go on for up to `graceMs`, then stops every worker
   * (aborting what still runs, failing what is still queued) and waits for their `destroy`.
   */
  async shutdown(graceMs: number, reason = 'executor shutting down, the job was killed.'): Promise<void> {
    this.closed = true;
    const workers = [...this.workers.values()];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(workers.map((w) => w.whenIdle())),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    this.workers.clear();
    await Promise.all(workers.map((w) => w.stop(reason)));
  }

  private resolveHandler(
    trigger: TriggerParam,
  ): { key: string; registration: HandlerRegistration } | { refused: string } {
    const { glueType } = trigger;
    if (glueType === 'BEAN') {
      const registration = this.handlers.get(trigger.executorHandler);
      if (!registration) return { refused: MSG.handlerNotFound(trigger.executorHandler) };
      return { key: `BEAN:${trigger.executorHandler}`, registration };
    }
    const known = glueType === 'GLUE_GROOVY' || isGlueScriptType(glueType);
    if (!known) return { refused: MSG.glueTypeInvalid(glueType) };
    if (!this.opts.enableGlue) {
      return {
        refused: `glueType[${glueType}] refused: GLUE is disabled on this executor (enable it with enableGlue: true only if you trust every admin that can reach it).`,
      };
    }
    if (!isGlueScriptType(glueType)) {
      return {
        refused: `glueType[${glueType}] is not supported: a tickring executor cannot run Groovy/Java source; use a BEAN handler or a GLUE script type.`,
      };
    }
    if (!trigger.glueSource.trim()) return { refused: `glueType[${glueType}] refused: glueSource is empty.` };
    const handler = createScriptHandler({
      jobId: trigger.jobId,
      glueType,
      glueSource: trigger.glueSource,
      glueUpdatetime: trigger.glueUpdatetime,
      logDir: this.opts.logDir,
      interpreters: this.opts.glueInterpreters,
      killGraceMs: this.opts.abortGraceMs,
    });
    return { key: `${glueType}:${trigger.glueUpdatetime}`, registration: { handler } };
  }

  private newWorker(
    jobId: number,
    key: string,
    registration: HandlerRegistration,
    after: Promise<void> | undefined,
  ): JobWorker {
    const openLog =
      this.opts.openLog ??
      ((t: TriggerParam) => new FileJobLog(logFilePath(this.opts.logDir, t.logDateTime, t.logId)));
    return new JobWorker(
      jobId,
      key,
      registration,
      {
        openLog,
        report: (t, result: JobResult) =>
          this.opts.onCallback({
            logId: t.logId,
            logDateTim: t.logDateTime,
            handleCode: result.handleCode,
            ...(result.handleMsg === undefined ? {} : { handleMsg: result.handleMsg }),
          }),
        onIdle: (w) => {
          if (this.workers.get(jobId) === w) this.workers.delete(jobId);
          void w.stop(MSG.idleReason);
        },
        onError: (message, err) => this.opts.onError(message, { jobId, error: errorText(err) }),
        abortGraceMs: this.opts.abortGraceMs,
        idleTimeoutMs: this.opts.idleTimeoutMs,
      },
      after,
    );
  }

  private rememberLogId(logId: number): void {
    this.recentLogIds.add(logId);
    if (this.recentLogIds.size > REMEMBERED_LOG_IDS) {
      const oldest = this.recentLogIds.values().next().value;
      if (oldest !== undefined) this.recentLogIds.delete(oldest);
    }
  }
}
